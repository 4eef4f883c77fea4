package dev.limiter.agent.weave;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Makes the receiver of a no-argument, void request runner the thread's current request while the runner runs
 * (RESTEasy Reactive's {@code AbstractResteasyReactiveContext.run()}, which runs a request's handler chain, the
 * resource method included, on whichever thread the request is on), written with ASM alone like
 * {@link ServletEntryAdvice}:
 *
 * <pre>
 *   try { LimiterBridge.requestEnter(this); } catch (Throwable t) { }
 *   try { body, every return preceded by LimiterBridge.requestExit() }
 *   catch (any t) { LimiterBridge.requestExit(); throw t; }
 * </pre>
 *
 * Nothing is decided here: woven resource methods ({@code jaxrs:} rules) read their HTTP keys from that request
 * ({@code LimiterBridge.currentRequest()}). As in {@link ServletEntryAdvice}, the catch-all comes after the
 * method's own handlers and leaves out the exit calls.
 */
final class RequestScopeAdvice extends MethodVisitor {

    static final String BRIDGE = "dev/limiter/bootstrap/LimiterBridge";
    private static final String THROWABLE = "java/lang/Throwable";

    private final ArgumentFrame arguments;
    private final Label handler = new Label();
    /** Start and end labels of the ranges the catch-all covers: the body without the exit calls. */
    private final List<Label> covered = new ArrayList<>();

    RequestScopeAdvice(MethodVisitor target, String owner, String descriptor, boolean frames) {
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
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "requestEnter", "(Ljava/lang/Object;)V", false);
        mv.visitLabel(enterEnd);
        mv.visitJumpInsn(Opcodes.GOTO, body);
        mv.visitLabel(enterFailed);
        arguments.visit(mv, THROWABLE);
        mv.visitInsn(Opcodes.POP);
        mv.visitLabel(body);
        arguments.visit(mv, null);
        // the body's own first instruction may carry a frame too: two frames cannot share an offset
        mv.visitInsn(Opcodes.NOP);
        covered.add(body);
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode == Opcodes.RETURN) {
            Label exitStart = new Label();
            Label exitEnd = new Label();
            mv.visitLabel(exitStart);
            covered.add(exitStart);
            exit();
            mv.visitLabel(exitEnd);
            covered.add(exitEnd);
        }
        super.visitInsn(opcode);
    }

    @Override
    public void visitMaxs(int maxStack, int maxLocals) {
        Label bodyEnd = new Label();
        mv.visitLabel(bodyEnd);
        covered.add(bodyEnd);
        mv.visitLabel(handler);
        arguments.visit(mv, THROWABLE);
        exit();
        mv.visitInsn(Opcodes.ATHROW);
        for (int i = 0; i < covered.size(); i += 2) {
            mv.visitTryCatchBlock(covered.get(i), covered.get(i + 1), handler, null);
        }
        // the enter call needs one stack slot, the handler one
        super.visitMaxs(Math.max(maxStack, 1), maxLocals);
    }

    private void exit() {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "requestExit", "()V", false);
    }
}
