package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The advice tests' stand-ins for the framework classes an advice is woven into: written with ASM under the real
 * class's name (no framework on the class path), woven, and defined in a loader of their own.
 */
final class StandIns {

    private StandIns() {
    }

    /** A writer that computes maxima and frames without loading a class: every common super type is Object. */
    static ClassWriter writer() {
        return new ClassWriter(ClassWriter.COMPUTE_MAXS | ClassWriter.COMPUTE_FRAMES) {
            @Override
            protected String getCommonSuperClass(String type1, String type2) {
                return "java/lang/Object";
            }
        };
    }

    /** {@code public <init>()}, calling {@code Object}'s. */
    static void constructor(ClassWriter writer) {
        constructor(writer, "java/lang/Object");
    }

    /** {@code public <init>()}, calling the one of {@code superName} (an internal name). */
    static void constructor(ClassWriter writer, String superName) {
        MethodVisitor init = writer.visitMethod(Opcodes.ACC_PUBLIC, "<init>", "()V", null, null);
        init.visitCode();
        init.visitVarInsn(Opcodes.ALOAD, 0);
        init.visitMethodInsn(Opcodes.INVOKESPECIAL, superName, "<init>", "()V", false);
        init.visitInsn(Opcodes.RETURN);
        init.visitMaxs(0, 0);
        init.visitEnd();
    }

    /** {@code classFile} defined as {@code internalName} in a fresh loader; every other class from this test's. */
    static Class<?> define(String internalName, byte[] classFile) throws ClassNotFoundException {
        String name = internalName.replace('/', '.');
        ClassLoader loader = new ClassLoader(StandIns.class.getClassLoader()) {
            @Override
            protected Class<?> findClass(String wanted) throws ClassNotFoundException {
                if (!wanted.equals(name)) {
                    throw new ClassNotFoundException(wanted);
                }
                return defineClass(wanted, classFile, 0, classFile.length);
            }
        };
        return loader.loadClass(name);
    }
}
