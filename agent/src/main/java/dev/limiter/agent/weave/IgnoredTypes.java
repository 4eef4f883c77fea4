package dev.limiter.agent.weave;

/**
 * The package prefixes the agent never weaves: the JDK, Byte Buddy, and our own packages (named one by one,
 * because applications, our demo and integration-test apps among them, may live under {@code dev.limiter.}).
 *
 * <p>One list for every user that must agree: the class file transformer (by internal name), the selection of
 * already loaded classes to retransform at installation and after reloads, and the Byte Buddy transformer kept
 * as a fallback ({@link Weaver}).
 */
public final class IgnoredTypes {

    static final String[] PREFIXES = {
        "net.bytebuddy.", "java.", "javax.management.", "jdk.", "sun.", "com.sun.",
        "dev.limiter.agent.", "dev.limiter.bootstrap.", "dev.limiter.api.", "dev.limiter.core.",
        "dev.limiter.rules.", "dev.limiter.shaded.",
    };

    /** {@link #PREFIXES} as internal names ({@code java/}), the form a class file transformer is given. */
    private static final String[] INTERNAL_PREFIXES = new String[PREFIXES.length];
    /**
     * The first characters of the prefixes: the transformer asks about every class loaded, and most of an
     * application's ({@code org.}, {@code io.}...) are answered by this one look-up.
     */
    private static final boolean[] FIRST_CHARS = new boolean[128];

    static {
        for (int i = 0; i < PREFIXES.length; i++) {
            INTERNAL_PREFIXES[i] = PREFIXES[i].replace('.', '/');
            FIRST_CHARS[PREFIXES[i].charAt(0)] = true;
        }
    }

    private IgnoredTypes() {
    }

    /** True if the agent never weaves {@code className} (JDK, Byte Buddy, the agent itself). */
    public static boolean ignored(String className) {
        if (!mayStartAPrefix(className)) {
            return false;
        }
        for (String prefix : PREFIXES) {
            if (className.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    /** {@link #ignored} for an internal name ({@code a/b/C}), without converting it. */
    public static boolean ignoredInternalName(String internalName) {
        if (!mayStartAPrefix(internalName)) {
            return false;
        }
        for (String prefix : INTERNAL_PREFIXES) {
            if (internalName.startsWith(prefix)) {
                return true;
            }
        }
        return false;
    }

    private static boolean mayStartAPrefix(String name) {
        if (name.isEmpty()) {
            return false;
        }
        char first = name.charAt(0);
        return first < FIRST_CHARS.length && FIRST_CHARS[first];
    }
}
