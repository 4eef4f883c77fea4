package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;
import net.bytebuddy.jar.asm.Type;

/**
 * The exits of an advice whose method hands what it returns to its bridge: every returned object goes through the
 * bridge's {@code exit(Object)Object} and is replaced by what that returns, cast back to the method's return type
 * (a publisher, a listener, a response or its future); a throw calls the bridge's {@code failed()}. Shared by
 * {@link ReactiveEntryAdvice} and {@link ClientCallAdvice}, which differ in what they pass to {@code enter}.
 */
abstract class ReturnedValueAdvice extends ExitOnEveryPathAdvice {

    final String bridge;
    final String returnType;

    /** @param enterStack the operand stack slots the enter call needs */
    ReturnedValueAdvice(MethodVisitor target, String owner, String descriptor, boolean frames, String bridge,
            int enterStack) {
        super(target, new ArgumentFrame(owner, descriptor, frames), Type.getReturnType(descriptor).getInternalName(),
                bridge, "failed", enterStack);
        this.bridge = bridge;
        this.returnType = Type.getReturnType(descriptor).getInternalName();
    }

    /** Only a returned object is handed over: a throw is the catch-all's. */
    @Override
    boolean exitsAt(int opcode) {
        return opcode == Opcodes.ARETURN;
    }

    /** {@code return (T) Bridge.exit(r)}: the value on the stack is replaced by the one returned. */
    @Override
    void exit() {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, "exit", "(Ljava/lang/Object;)Ljava/lang/Object;", false);
        mv.visitTypeInsn(Opcodes.CHECKCAST, returnType);
    }

    /** {@code Bridge.failed()}: the bridge's ()V method {@code failed}. */
    @Override
    void thrownExit() {
        super.exit();
    }
}
