package dev.limiter.agent.weave;

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
 * The frame (the catch-all, the exit before each return) is {@link ExitOnEveryPathAdvice}'s; this class adds
 * the enter call and the skipped body of a rejection.
 */
final class ServletEntryAdvice extends ExitOnEveryPathAdvice {

    static final String BRIDGE = "dev/limiter/bootstrap/LimiterBridge";

    private final Label skipBody = new Label();

    ServletEntryAdvice(MethodVisitor target, String owner, String descriptor, boolean frames) {
        super(target, owner, descriptor, frames, BRIDGE, "servletExit", 2);
    }

    @Override
    void enter() {
        mv.visitVarInsn(Opcodes.ALOAD, 1);
        mv.visitVarInsn(Opcodes.ALOAD, 2);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "servletEnter",
                "(Ljava/lang/Object;Ljava/lang/Object;)Z", false);
    }

    @Override
    void afterEnter(Label body) {
        mv.visitJumpInsn(Opcodes.IFEQ, body);
        mv.visitJumpInsn(Opcodes.GOTO, skipBody);
    }

    /** A rejected request: the bridge wrote the 429; leave without running the body. */
    @Override
    void afterBody() {
        mv.visitLabel(skipBody);
        arguments.visit(mv, null);
        exit();
        mv.visitInsn(Opcodes.RETURN);
    }
}
