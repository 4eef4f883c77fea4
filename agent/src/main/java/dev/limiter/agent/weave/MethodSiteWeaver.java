package dev.limiter.agent.weave;

import dev.limiter.agent.classfile.ClassReaders;
import dev.limiter.agent.method.SiteToWeave;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import net.bytebuddy.jar.asm.ClassReader;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.ClassWriter;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Weaves {@link MethodSiteAdvice} into the methods of one class that rules or {@code @Limit} name, with plain
 * ASM, as {@link EntryPointWeaver} does for the container entry points: no Byte Buddy weaving engine (some 700
 * classes and a third of a second on the first class woven), no class loaded, frames kept as the compiler wrote
 * them plus the advice's local.
 *
 * <p>Two passes over the class file: the first reads each woven method's {@code max_locals} (where the advice's
 * local goes), the second writes. Only method bodies change, so the class stays retransformable.
 */
final class MethodSiteWeaver {

    private MethodSiteWeaver() {
    }

    /** The class file with advice in each of {@code sites}' methods, or null if there are none. */
    static byte[] weave(byte[] classFile, List<SiteToWeave> sites) {
        if (sites.isEmpty()) {
            return null;
        }
        Map<String, SiteToWeave> byMethod = new HashMap<>();
        for (SiteToWeave site : sites) {
            byMethod.put(site.name() + site.descriptor(), site);
        }
        ClassReader reader = ClassReaders.of(classFile);
        MaxLocals maxLocals = new MaxLocals(byMethod);
        reader.accept(maxLocals, ClassReader.SKIP_DEBUG | ClassReader.SKIP_FRAMES);
        ClassWriter writer = new ClassWriter(reader, 0);
        reader.accept(new Visitor(writer, byMethod, maxLocals.byMethod), ClassReader.EXPAND_FRAMES);
        return writer.toByteArray();
    }

    private static final class Visitor extends AdviceWeavingVisitor {

        private final Map<String, SiteToWeave> sites;

        Visitor(ClassVisitor writer, Map<String, SiteToWeave> sites, Map<String, Integer> maxLocals) {
            super(writer, maxLocals);
            this.sites = sites;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            MethodVisitor method = super.visitMethod(access, name, descriptor, signature, exceptions);
            SiteToWeave site = sites.get(name + descriptor);
            Integer locals = maxLocals.get(name + descriptor);
            if (site == null || locals == null) {
                return method; // abstract or native: the planner weaves neither
            }
            return new MethodSiteAdvice(method, owner, access, descriptor, frames, site, locals);
        }
    }

    /** The first pass: {@code max_locals} of each method with code that a site names. */
    private static final class MaxLocals extends ClassVisitor {

        private final Map<String, SiteToWeave> sites;
        final Map<String, Integer> byMethod = new HashMap<>();

        MaxLocals(Map<String, SiteToWeave> sites) {
            super(Opcodes.ASM9);
            this.sites = sites;
        }

        @Override
        public MethodVisitor visitMethod(int access, String name, String descriptor, String signature,
                String[] exceptions) {
            String key = name + descriptor;
            if (!sites.containsKey(key)) {
                return null;
            }
            return new MethodVisitor(Opcodes.ASM9) {
                @Override
                public void visitMaxs(int maxStack, int maxLocals) {
                    byMethod.put(key, maxLocals);
                }
            };
        }
    }
}
