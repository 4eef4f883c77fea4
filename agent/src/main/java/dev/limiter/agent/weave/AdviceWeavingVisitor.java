package dev.limiter.agent.weave;

import java.util.Map;
import net.bytebuddy.jar.asm.ClassVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * What both weavers' class visitors read before their methods: the class's internal name (the advice's frames name
 * the receiver by it), whether its class file has stack map frames at all (Java 6 and later), whether it is an
 * interface, and each method's own local slots, read by a first pass, for advice that adds a local.
 */
abstract class AdviceWeavingVisitor extends ClassVisitor {

    /** Local slots per method (name + descriptor); null if no advice adds a local. */
    final Map<String, Integer> maxLocals;
    String owner;
    boolean frames;
    boolean isInterface;

    AdviceWeavingVisitor(ClassVisitor writer, Map<String, Integer> maxLocals) {
        super(Opcodes.ASM9, writer);
        this.maxLocals = maxLocals;
    }

    @Override
    public void visit(int version, int access, String name, String signature, String superName,
            String[] interfaces) {
        this.owner = name;
        this.frames = (version & 0xFFFF) >= Opcodes.V1_6;
        this.isInterface = (access & Opcodes.ACC_INTERFACE) != 0;
        super.visit(version, access, name, signature, superName, interfaces);
    }
}
