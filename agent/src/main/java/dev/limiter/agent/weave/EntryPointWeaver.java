package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.utility.OpenedClassReader;

/**
 * Weaves the container entry points, servlet and filter {@code service} / {@code doFilter} and JAX-RS
 * {@code ExceptionMapper.toResponse}, with plain ASM ({@link ServletEntryAdvice}, {@link MapperEntryAdvice}).
 *
 * <p>Why not Byte Buddy's {@code Advice} here: it is the same inlined code, but Byte Buddy's weaving machinery
 * loads some 700 classes and costs about a second of CPU on the first class woven, which every servlet
 * application pays at start-up. These two shapes are fixed (no per-method constants, no rules involved), so
 * they are written out by hand once. Methods named by {@code method:} and {@code jaxrs:} rules, which need
 * annotation and type analysis, stay with Byte Buddy ({@link ClassWeaver}).
 *
 * <p>Only method bodies change (no member is added or removed), so the JVM can retransform the class again.
 * Frames are kept as the compiler wrote them (read expanded, so inserted frames fit among them) and the
 * constant pool is copied; no class is loaded.
 */
final class EntryPointWeaver {

    private static final String SERVLET_JAVAX = "(Ljavax/servlet/ServletRequest;Ljavax/servlet/ServletResponse;";
    private static final String SERVLET_JAKARTA =
            "(Ljakarta/servlet/ServletRequest;Ljakarta/servlet/ServletResponse;";

    private EntryPointWeaver() {
    }

    /**
     * The class file with advice in the entry points {@code targets} ({@link WeaveTarget} bits) calls for, or
     * null if the class declares none of them (nothing to change).
     */
    static byte[] weave(byte[] classFile, int targets) {
        ClassReader reader = OpenedClassReader.of(classFile);
        ClassWriter writer = new ClassWriter(reader, 0);
        Visitor visitor = new Visitor(writer, targets);
        reader.accept(visitor, ClassReader.EXPAND_FRAMES);
        return visitor.changed ? writer.toByteArray() : null;
    }

    /** True for {@code service} / {@code doFilter} as a container calls them: public, void, request first. */
    static boolean isServletEntry(int access, String name, String descriptor, int targets) {
        if ((access & (Opcodes.ACC_PUBLIC | Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE))
                != Opcodes.ACC_PUBLIC || !descriptor.endsWith(")V")
                || !("service".equals(name) || "doFilter".equals(name))) {
            return false;
        }
        String prefix = (targets & WeaveTarget.SERVLET_JAKARTA) != 0 && descriptor.startsWith(SERVLET_JAKARTA)
                ? SERVLET_JAKARTA
                : (targets & WeaveTarget.SERVLET_JAVAX) != 0 && descriptor.startsWith(SERVLET_JAVAX) ? SERVLET_JAVAX
                : null;
        if (prefix == null) {
            return false;
        }
        String rest = descriptor.substring(prefix.length(), descriptor.length() - 2);
        return rest.isEmpty() || isOneType(rest); // (request, response) or (request, response, chain)
    }

    /** True for {@code toResponse(E)} of a mapper: an instance method, one object argument, an object result. */
    static boolean isMapperEntry(int access, String name, String descriptor, int targets) {
        int excluded = Opcodes.ACC_STATIC | Opcodes.ACC_ABSTRACT | Opcodes.ACC_NATIVE | Opcodes.ACC_BRIDGE;
        if ((targets & WeaveTarget.MAPPERS) == 0 || (access & excluded) != 0 || !"toResponse".equals(name)
                || !descriptor.startsWith("(L")) {
            return false;
        }
        int close = descriptor.indexOf(')');
        return isOneType(descriptor.substring(1, close)) && descriptor.charAt(close + 1) == 'L';
    }

    /** True if {@code descriptors} is exactly one field descriptor. */
    private static boolean isOneType(String descriptors) {
        int i = 0;
        while (i < descriptors.length() && descriptors.charAt(i) == '[') {
            i++;
        }
        if (i == descriptors.length()) {
            return false;
        }
        if (descriptors.charAt(i) == 'L') {
            return descriptors.indexOf(';') == descriptors.length() - 1;
        }
        return i == descriptors.length() - 1;
    }

    private static final class Visitor extends ClassVisitor {

        private final int targets;
        private String owner;
        private boolean frames;
        private boolean isInterface;
        boolean changed;

        Visitor(ClassVisitor writer, int targets) {
            super(Opcodes.ASM9, writer);
            this.targets = targets;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            this.owner = name;
            this.frames = (version & 0xFFFF) >= Opcodes.V1_6;
            this.isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
            super.visit(version, access, name, signature, superName, interfaces);
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            MethodVisitor method = super.visitMethod(access, name, descriptor, signature, exceptions);
            if (isInterface) {
                return method;
            }
            if (isServletEntry(access, name, descriptor, targets)) {
                changed = true;
                return new ServletEntryAdvice(method, owner, descriptor, frames);
            }
            if (isMapperEntry(access, name, descriptor, targets)) {
                changed = true;
                return new MapperEntryAdvice(method, owner, descriptor, frames);
            }
            return method;
        }
    }
}
