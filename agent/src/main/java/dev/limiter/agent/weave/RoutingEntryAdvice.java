package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Puts the limiter's check before a router routes a request: a no-argument void method whose receiver is the
 * request's routing context (Vert.x Web's {@code RoutingContextImpl.route()}), written with ASM alone like
 * {@link ServletEntryAdvice}:
 *
 * <pre>
 *   try { if (RoutingBridge.enter(this)) return; } catch (Throwable t) { }   // true: the rejection is written
 *   body, unchanged
 * </pre>
 *
 * Nothing runs at the method's exit: a request ends long after routing starts, so what it holds is released by
 * an end handler the agent registers on the context. The frames are {@link ArgumentFrame}'s.
 */
final class RoutingEntryAdvice extends EnterAdvice {

    static final String BRIDGE = "dev/limiter/bootstrap/RoutingBridge";

    RoutingEntryAdvice(MethodVisitor target, String owner, String descriptor, boolean frames) {
        super(target, new ArgumentFrame(owner, descriptor, frames));
    }

    @Override
    void enter() {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "enter", "(Ljava/lang/Object;)Z", false);
    }

    @Override
    void afterEnter(Label body) {
        mv.visitJumpInsn(Opcodes.IFEQ, body);
        mv.visitInsn(Opcodes.RETURN);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        super.visitMaxs(Math.max(maxStack, 1), maxLocals);
    }
}
