package dev.limiter.agent.weave;

import java.util.ArrayList;
import java.util.List;
import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The frame of a method woven to call the bridge on entry and to call its exit on every way out, with ASM
 * alone ({@link ServletEntryAdvice}, {@link RequestScopeAdvice}, {@link MethodSiteAdvice}):
 *
 * <pre>
 *   try { enter } catch (Throwable t) { }       // a failing enter runs the body as if nothing was woven
 *   try { body, where every return first calls exit }
 *   catch (any t) { exit; throw t; }
 * </pre>
 *
 * The catch-all is appended to the exception table after the method's own entries, so the method's handlers
 * keep precedence; its ranges leave out the exit calls before each return, so a failing exit is never run
 * twice. The exit call at a return takes its arguments on top of whatever the return leaves on the operand
 * stack (its value) and leaves the stack as it was. The guarded enter is {@link EnterAdvice}'s. Frames name the
 * arguments only ({@link ArgumentFrame}), plus what a subclass adds; none are written for class files older than
 * Java 6, which have none.
 */
abstract class ExitOnEveryPathAdvice extends EnterAdvice {

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
        this(target, new ArgumentFrame(owner, descriptor, frames), bridge, exitMethod, enterStack);
    }

    /** @param arguments the frame of the method's receiver and arguments */
    ExitOnEveryPathAdvice(MethodVisitor target, ArgumentFrame arguments, String bridge, String exitMethod,
            int enterStack) {
        this(target, arguments, null, bridge, exitMethod, enterStack);
    }

    /** @param answerType the method's return type when the enter answers with an object ({@link EnterAdvice}) */
    ExitOnEveryPathAdvice(MethodVisitor target, ArgumentFrame arguments, String answerType, String bridge,
            String exitMethod, int enterStack) {
        super(target, arguments, answerType);
        this.bridge = bridge;
        this.exitMethod = exitMethod;
        this.enterStack = enterStack;
    }

    /** Emits code placed after the body and before the catch-all (a skipped body's way out); none by default. */
    void afterBody() {
    }

    /** The frame of the catch-all around the body (with the throwable on the stack). */
    ArgumentFrame handlerFrame() {
        return arguments;
    }

    /** Operand stack slots {@link #exit} needs. */
    int exitStack() {
        return 0;
    }

    /** Local slots the advice adds after the method's own. */
    int addedLocals() {
        return 0;
    }

    /** True if {@link #exit} runs before a return instruction {@code opcode}: every return by default. */
    boolean exitsAt(int opcode) {
        return opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN;
    }

    @Override
    public void visitCode() {
        super.visitCode();
        covered.add(body);
    }

    @Override
    public void visitInsn(int opcode) {
        if (exitsAt(opcode)) {
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
        handlerFrame().visit(mv, THROWABLE);
        thrownExit();
        mv.visitInsn(Opcodes.ATHROW);
        for (int i = 0; i < covered.size(); i += 2) {
            mv.visitTryCatchBlock(covered.get(i), covered.get(i + 1), handler, null);
        }
        // an exit at a return goes on top of the return value; the handler holds the throwable under it
        super.visitMaxs(Math.max(maxStack + exitStack(), Math.max(enterStack, 1 + exitStack())),
                maxLocals + addedLocals());
    }

    /** Emits the exit call: the bridge's {@code ()V} exit method unless a subclass passes more. */
    void exit() {
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, bridge, exitMethod, "()V", false);
    }

    /** Emits the catch-all's call, the throwable below it on the stack: {@link #exit} unless a subclass differs. */
    void thrownExit() {
        exit();
    }
}
