package dev.limiter.agent.weave;

/**
 * The library types whose implementations get advice, one bit each, so "which of them does this class
 * implement" is a small {@code int} that can be cached per class name without allocation (boxed values 0-15 are
 * the JDK's cached {@code Integer}s).
 *
 * <p>Each bit stands for one API generation: the servlet bit for {@code Servlet} or {@code Filter}, the mapper
 * bit for JAX-RS's {@code ext.ExceptionMapper}. A class loader that cannot see a type's class file can hold no
 * implementation of it ({@link ApiVisibility}), so the same bits also say what a loader can see.
 */
final class WeaveTarget {

    static final int SERVLET_JAVAX = 1;
    static final int SERVLET_JAKARTA = 2;
    static final int MAPPER_JAVAX = 4;
    static final int MAPPER_JAKARTA = 8;
    static final int SERVLETS = SERVLET_JAVAX | SERVLET_JAKARTA;
    static final int MAPPERS = MAPPER_JAVAX | MAPPER_JAKARTA;

    /** Internal names of the target types, and the bit each one sets. */
    private static final String[] NAMES = {
        "javax/servlet/Servlet", "javax/servlet/Filter",
        "jakarta/servlet/Servlet", "jakarta/servlet/Filter",
        "javax/ws/rs/ext/ExceptionMapper", "jakarta/ws/rs/ext/ExceptionMapper",
    };
    private static final int[] BITS = {
        SERVLET_JAVAX, SERVLET_JAVAX, SERVLET_JAKARTA, SERVLET_JAKARTA, MAPPER_JAVAX, MAPPER_JAKARTA,
    };

    /**
     * The class file whose presence tells that a loader can see an API (the same resources the AgentBuilder
     * matchers checked: {@code Servlet} for the servlet API, {@code ext.ExceptionMapper} for JAX-RS).
     */
    static final String[] VISIBILITY_RESOURCES = {
        "javax/servlet/Servlet.class", "jakarta/servlet/Servlet.class",
        "javax/ws/rs/ext/ExceptionMapper.class", "jakarta/ws/rs/ext/ExceptionMapper.class",
    };
    static final int[] VISIBILITY_BITS = {SERVLET_JAVAX, SERVLET_JAKARTA, MAPPER_JAVAX, MAPPER_JAKARTA};

    private WeaveTarget() {
    }

    /** The bit of target type {@code internalName} ({@code a/b/C}), or 0 if it is not one. */
    static int bitOf(String internalName) {
        for (int i = 0; i < NAMES.length; i++) {
            if (NAMES[i].equals(internalName)) {
                return BITS[i];
            }
        }
        return 0;
    }

    /** {@link #bitOf} for a binary name ({@code a.b.C}), as {@link Class#getName()} gives it. */
    static int bitOfBinaryName(String binaryName) {
        for (int i = 0; i < NAMES.length; i++) {
            String name = NAMES[i];
            if (name.length() == binaryName.length() && name.replace('/', '.').equals(binaryName)) {
                return BITS[i];
            }
        }
        return 0;
    }
}
