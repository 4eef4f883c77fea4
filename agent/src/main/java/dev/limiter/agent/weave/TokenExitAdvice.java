package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * An {@link ExitOnEveryPathAdvice} whose enter returns a token the exits need (what an admitted call holds, or
 * null): the token lives in a new local after the method's own, so nothing is kept per thread and a nested call
 * keeps its own. Every frame of the body is given it; the catch-all's frame holds it alone; a failed enter runs
 * the body with no token.
 */
abstract class TokenExitAdvice extends ExitOnEveryPathAdvice {

    /** The token's local slot. */
    final int token;
    private final ArgumentFrame bodyFrame;
    private final ArgumentFrame handlerFrame;

    /** @param maxLocals the method's own local slots: the token goes in the next one */
    TokenExitAdvice(MethodVisitor target, ArgumentFrame arguments, String bridge, String exitMethod, int enterStack,
            int maxLocals) {
        super(target, arguments, bridge, exitMethod, enterStack);
        this.token = maxLocals;
        this.bodyFrame = arguments.withLocal(token, OBJECT);
        this.handlerFrame = arguments.onlyLocal(token, OBJECT);
    }

    /** A failed enter runs the body as if nothing was woven: no token. */
    @Override
    void enterFailed() {
        super.enterFailed();
        mv.visitInsn(Opcodes.ACONST_NULL);
        mv.visitVarInsn(Opcodes.ASTORE, token);
    }

    @Override
    ArgumentFrame bodyFrame() {
        return bodyFrame;
    }

    @Override
    ArgumentFrame handlerFrame() {
        return handlerFrame;
    }

    @Override
    int addedLocals() {
        return 1;
    }

    /** The body's own frames (read expanded) gain the token, so an exit after any of them can read it. */
    @Override
    public void visitFrame(int type, int numLocal, Object[] local, int numStack, Object[] stack) {
        Object[] locals = ArgumentFrame.withLocal(local == null ? new Object[0] : local, numLocal, token, OBJECT);
        super.visitFrame(type, locals.length, locals, numStack, stack);
    }
}
