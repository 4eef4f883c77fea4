package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The start every advice writer shares: the bridge's enter call, guarded so that a failure of the agent runs the
 * method as if nothing was woven, then the body, unchanged, under the arguments' frame ({@link ArgumentFrame}):
 *
 * <pre>
 *   try { enter } catch (Throwable t) { }      // what follows the enter decides whether the body runs
 *   body
 * </pre>
 *
 * Written with ASM alone: weaving a class loads none of Byte Buddy's weaving classes. What runs at the exits, if
 * anything, is {@link ExitOnEveryPathAdvice}'s.
 */
abstract class EnterAdvice extends MethodVisitor {

    static final String THROWABLE = "java/lang/Throwable";
    static final String OBJECT = "java/lang/Object";

    final ArgumentFrame arguments;
    /** Where the body starts, once {@link #visitCode} has run. */
    final Label body = new Label();
    /**
     * The method's return type when the enter answers with an object to return instead of running the body (a
     * rejection's response or publisher), else null.
     */
    private final String answerType;
    /** Where an enter that answered "not ours" goes on. */
    final Label notOurs = new Label();

    EnterAdvice(MethodVisitor target, ArgumentFrame arguments) {
        this(target, arguments, null);
    }

    /**
     * An advice whose enter leaves an object: returned, cast to {@code answerType}, if not null (the agent's
     * answer), else the body runs; a failed enter counts as a null answer.
     */
    EnterAdvice(MethodVisitor target, ArgumentFrame arguments, String answerType) {
        super(Opcodes.ASM9, target);
        this.arguments = arguments;
        this.answerType = answerType;
    }

    /** Emits the enter call, leaving nothing on the stack but what {@link #afterEnter} consumes. */
    abstract void enter();

    /**
     * Emits what follows a successful enter: at least a jump to {@code body}, or a fall-through into it. With an
     * answer type: the answer, if any, is returned.
     */
    void afterEnter(Label body) {
        mv.visitInsn(Opcodes.DUP);
        mv.visitJumpInsn(Opcodes.IFNULL, notOurs);
        answer(answerType);
    }

    /** Emits what is done with a non-null answer on the stack: returned, cast to {@code type}. */
    void answer(String type) {
        mv.visitTypeInsn(Opcodes.CHECKCAST, type);
        mv.visitInsn(Opcodes.ARETURN);
    }

    /**
     * Emits what follows a failed enter, once the frame is written: drops the failure from the stack (with an
     * answer type: and goes on as after a null answer).
     */
    void enterFailed() {
        mv.visitInsn(Opcodes.POP);
        if (answerType != null) {
            mv.visitInsn(Opcodes.ACONST_NULL);
            mv.visitLabel(notOurs);
            arguments.visit(mv, OBJECT);
            mv.visitInsn(Opcodes.POP);
        }
    }

    /** The frame where the body starts: the arguments, and what the enter added. */
    ArgumentFrame bodyFrame() {
        return arguments;
    }

    @Override
    public void visitCode() {
        super.visitCode();
        Label enterStart = new Label();
        Label enterEnd = new Label();
        Label enterFailed = new Label();
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
    }
}
