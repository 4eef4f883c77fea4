package dev.limiter.agent.weave;

import dev.limiter.agent.classfile.ClassReaders;
import java.util.HashMap;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Weaves the registered entry points' methods ({@link WeaveTarget}: servlet and filter {@code service} /
 * {@code doFilter}, JAX-RS {@code ExceptionMapper.toResponse}, the reactive servers' and gRPC's one named class
 * each) with plain ASM, the advice of each method's {@link dev.limiter.agent.entry.AdviceShape} ({@link Advices}).
 *
 * <p>Why plain ASM and not Byte Buddy's {@code Advice}: it is the same inlined code, but Byte Buddy's weaving
 * machinery loads some 700 classes and costs about a second of CPU on the first class woven, which every
 * application would pay at start-up. The shapes are fixed (no per-method constants, no rules involved), so they
 * are written out by hand once. Methods named by {@code method:} and {@code jaxrs:} rules or carrying
 * {@code @Limit} are planned from their class files and woven with ASM too, by {@link ClassWeaver}.
 *
 * <p>Only method bodies change (no member is added or removed), so the JVM can retransform the class again.
 * Frames are kept as the compiler wrote them (read expanded, so inserted frames fit among them) and the
 * constant pool is copied; no class is loaded.
 */
final class EntryPointWeaver {

    private EntryPointWeaver() {
    }

    /**
     * The class file with advice in the entry points {@code targets} ({@link WeaveTarget} bits) calls for, or
     * null if the class declares none of them (nothing to change).
     */
    static byte[] weave(byte[] classFile, int targets) {
        ClassReader reader = ClassReaders.of(classFile);
        Map<String, Integer> maxLocals = null;
        if (addLocals(targets)) { // a first pass reads where the advice's local goes (as MethodSiteWeaver does)
            MaxLocals pass = new MaxLocals(targets);
            reader.accept(pass, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
            maxLocals = pass.byMethod;
        }
        ClassWriter writer = new ClassWriter(reader, 0);
        Visitor visitor = new Visitor(writer, targets, maxLocals);
        reader.accept(visitor, ClassReader.EXPAND_FRAMES);
        return visitor.changed ? writer.toByteArray() : null;
    }

    /** True if one of {@code targets} has a shape whose advice adds a local. */
    private static boolean addLocals(int targets) {
        for (WeaveTarget target : WeaveTarget.ALL) {
            if ((targets & target.bit) != 0 && target.shape.addsLocal()) {
                return true;
            }
        }
        return false;
    }

    private static final class Visitor extends AdviceWeavingVisitor {

        private final int targets;
        boolean changed;

        Visitor(ClassVisitor writer, int targets, Map<String, Integer> maxLocals) {
            super(writer, maxLocals);
            this.targets = targets;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            MethodVisitor method = super.visitMethod(access, name, descriptor, signature, exceptions);
            WeaveTarget target = isInterface ? null : WeaveTarget.weaving(targets, access, name, descriptor);
            if (target == null) {
                return method;
            }
            int locals = -1;
            if (target.shape.addsLocal()) {
                Integer read = maxLocals == null ? null : maxLocals.get(name + descriptor);
                if (read == null) {
                    return method; // no code: the target excludes abstract and native methods anyway
                }
                locals = read;
            }
            changed = true;
            return Advices.weave(target, method, owner, descriptor, frames, locals);
        }
    }

    /** The first pass: {@code max_locals} of each method woven with a shape whose advice adds a local. */
    private static final class MaxLocals extends ClassVisitor {

        private final int targets;
        private boolean isInterface;
        final Map<String, Integer> byMethod = new HashMap<>();

        MaxLocals(int targets) {
            super(Opcodes.ASM9);
            this.targets = targets;
        }

        @Override
        public void visit(int version, int access, String name, String signature, String superName,
                String[] interfaces) {
            this.isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            WeaveTarget target = isInterface ? null : WeaveTarget.weaving(targets, access, name, descriptor);
            if (target == null || !target.shape.addsLocal()) {
                return null;
            }
            String key = name + descriptor;
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public void visitMaxs(int maxStack, int maxLocals) {
                    byMethod.put(key, maxLocals);
                }
            };
        }
    }
}
