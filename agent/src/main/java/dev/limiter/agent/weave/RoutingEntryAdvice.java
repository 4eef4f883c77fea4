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
final class RoutingEntryAdvice extends MethodVisitor {

    static final String BRIDGE = "dev/limiter/bootstrap/RoutingBridge";
    private static final String THROWABLE = "java/lang/Throwable";

    private final ArgumentFrame arguments;

    RoutingEntryAdvice(MethodVisitor target, String owner, String descriptor, boolean frames) {
        super(Opcodes.ASM9, target);
        this.arguments = new ArgumentFrame(owner, descriptor, frames);
    }

    @Override
    public void visitCode() {
        super.visitCode();
        Label enterStart = new Label();
        Label enterEnd = new Label();
        Label enterFailed = new Label();
        Label body = new Label();
        mv.visitTryCatchBlock(enterStart, enterEnd, enterFailed, THROWABLE);
        mv.visitLabel(enterStart);
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "enter", "(Ljava/lang/Object;)Z", false);
        mv.visitLabel(enterEnd);
        mv.visitJumpInsn(Opcodes.IFEQ, body);
        mv.visitInsn(Opcodes.RETURN);
        mv.visitLabel(enterFailed);
        arguments.visit(mv, THROWABLE);
        mv.visitInsn(Opcodes.POP);
        mv.visitLabel(body);
        arguments.visit(mv, null);
        // the body's own first instruction may carry a frame too: two frames cannot share an offset
        mv.visitInsn(Opcodes.NOP);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        super.visitMaxs(Math.max(maxStack, 1), maxLocals);
    }
}
