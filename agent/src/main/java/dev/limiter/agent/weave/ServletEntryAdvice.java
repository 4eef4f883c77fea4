package dev.limiter.agent.weave;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Adds the limiter's check around the body of one {@code service(ServletRequest, ServletResponse)} or
 * {@code doFilter(ServletRequest, ServletResponse, FilterChain)}, written with ASM alone so that weaving a
 * servlet loads none of Byte Buddy's weaving classes.
 *
 * <pre>
 *   try { reject = LimiterBridge.servletEnter(request, response); } catch (Throwable t) { reject = false; }
 *   if (reject) { LimiterBridge.servletExit(); return; }          // the bridge wrote the 429
 *   try { body, where every return first calls LimiterBridge.servletExit() }
 *   catch (any t) { LimiterBridge.servletExit(); throw t; }
 * </pre>
 *
 * The catch-all is appended to the exception table after the method's own entries, so the method's handlers
 * keep precedence; its ranges leave out the exit calls before each return, so a failing exit is never run
 * twice. Only void methods are woven (what {@code Servlet} and {@code Filter} declare), so a return carries no
 * value and the exit at a return works whatever is on the operand stack. Frames name the arguments only
 * ({@link ArgumentFrame}); none are written for class files older than Java 6, which have none.
 */
final class ServletEntryAdvice extends MethodVisitor {

    static final String BRIDGE = "dev/limiter/bootstrap/LimiterBridge";
    private static final String THROWABLE = "java/lang/Throwable";

    private final ArgumentFrame arguments;
    private final Label enterStart = new Label();
    private final Label enterEnd = new Label();
    private final Label enterFailed = new Label();
    private final Label skipBody = new Label();
    private final Label handler = new Label();
    /** Start and end labels of the ranges the catch-all covers: the body without the exit calls. */
    private final List<Label> covered = new ArrayList<>();

    ServletEntryAdvice(MethodVisitor target, String owner, String descriptor, boolean frames) {
        super(Opcodes.ASM9, target);
        this.arguments = new ArgumentFrame(owner, descriptor, frames);
    }

    @Override
    public void visitCode() {
        super.visitCode();
        Label body = new Label();
        mv.visitLabel(enterStart);
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitVarInsn(Opcodes.ALOAD, 2);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "servletEnter",
                "(Ljava/lang/Object;Ljava/lang/Object;)Z", false);
        mv.visitLabel(enterEnd);
        mv.visitJumpInsn(Opcodes.IFEQ, body);
        mv.visitJumpInsn(Opcodes.GOTO, skipBody);
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
        mv.visitLabel(skipBody);
        arguments.visit(mv, null);
        exit();
        mv.visitInsn(Opcodes.RETURN);
        mv.visitLabel(handler);
        arguments.visit(mv, THROWABLE);
        exit();
        mv.visitInsn(Opcodes.ATHROW);
        mv.visitTryCatchBlock(enterStart, enterEnd, enterFailed, THROWABLE);
        for (int i = 0; i < covered.size(); i += 2) {
            mv.visitTryCatchBlock(covered.get(i), covered.get(i + 1), handler, null);
        }
        // the enter call needs two stack slots, the handler one
        super.visitMaxs(Math.max(maxStack, 2), maxLocals);
    }

    private void exit() {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "servletExit", "()V", false);
    }
}
