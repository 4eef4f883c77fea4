package dev.limiter.agent.weave;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The frame of a void method woven to call the bridge on entry and to call its exit on every way out, with ASM
 * alone ({@link ServletEntryAdvice}, {@link RequestScopeAdvice}):
 *
 * <pre>
 *   try { enter } catch (Throwable t) { }       // a failing enter runs the body as if nothing was woven
 *   try { body, where every return first calls exit }
 *   catch (any t) { exit; throw t; }
 * </pre>
 *
 * The catch-all is appended to the exception table after the method's own entries, so the method's handlers
 * keep precedence; its ranges leave out the exit calls before each return, so a failing exit is never run
 * twice. Only void methods are woven, so a return carries no value and the exit at a return works whatever is
 * on the operand stack. Frames name the arguments only ({@link ArgumentFrame}); none are written for class files
 * older than Java 6, which have none.
 */
abstract class ExitOnEveryPathAdvice extends MethodVisitor {

    static final String THROWABLE = "java/lang/Throwable";

    final ArgumentFrame arguments;
    private final String bridge;
    private final String exitMethod;
    private final int enterStack;
    private final Label handler = new Label();
    /** Start and end labels of the ranges the catch-all covers: the body without the exit calls. */
    private final List<Label> covered = new ArrayList<>();

    /**
     * @param exitMethod the bridge's static {@code ()V} method run on every way out
     * @param enterStack the operand stack slots the enter call needs
     */
    ExitOnEveryPathAdvice(MethodVisitor target, String owner, String descriptor, boolean frames, String bridge,
            String exitMethod, int enterStack) {
        super(Opcodes.ASM9, target);
        this.arguments = new ArgumentFrame(owner, descriptor, frames);
        this.bridge = bridge;
        this.exitMethod = exitMethod;
        this.enterStack = enterStack;
    }

    /** Emits the enter call, leaving nothing on the stack but what {@link #afterEnter} consumes. */
    abstract void enter();

    /** Emits what follows a successful enter: at least a jump to {@code body}. */
    abstract void afterEnter(Label body);

    /** Emits code placed after the body and before the catch-all (a skipped body's way out); none by default. */
    void afterBody() {
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
        enter();
        mv.visitLabel(enterEnd);
        afterEnter(body);
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
        afterBody();
        mv.visitLabel(handler);
        arguments.visit(mv, THROWABLE);
        exit();
        mv.visitInsn(Opcodes.ATHROW);
        for (int i = 0; i < covered.size(); i += 2) {
            mv.visitTryCatchBlock(covered.get(i), covered.get(i + 1), handler, null);
        }
        // the handler needs one stack slot
        super.visitMaxs(Math.max(maxStack, Math.max(enterStack, 1)), maxLocals);
    }

    /** Emits the exit call. */
    final void exit() {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, exitMethod, "()V", false);
    }
}
