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
 * stack (its value) and leaves the stack as it was. Frames name the arguments only ({@link ArgumentFrame}), plus
 * what a subclass adds; none are written for class files older than Java 6, which have none.
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
        this(target, new ArgumentFrame(owner, descriptor, frames), bridge, exitMethod, enterStack);
    }

    /** @param arguments the frame of the method's receiver and arguments */
    ExitOnEveryPathAdvice(MethodVisitor target, ArgumentFrame arguments, String bridge, String exitMethod,
            int enterStack) {
        super(Opcodes.ASM9, target);
        this.arguments = arguments;
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

    /** Emits what follows a failed enter, once the frame is written: drops the failure from the stack. */
    void enterFailed() {
        mv.visitInsn(Opcodes.POP);
    }

    /** The frame where the body starts: the arguments, and what the enter added. */
    ArgumentFrame bodyFrame() {
        return arguments;
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
        enterFailed();
        mv.visitLabel(body);
        bodyFrame().visit(mv, null);
        // the body's own first instruction may carry a frame too: two frames cannot share an offset
        mv.visitInsn(Opcodes.NOP);
        covered.add(body);
    }

    @Override
    public void visitInsn(int opcode) {
        if (opcode >= Opcodes.IRETURN && opcode <= Opcodes.RETURN) {
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
        exit();
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
}
