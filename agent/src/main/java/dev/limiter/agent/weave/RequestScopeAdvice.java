package dev.limiter.agent.weave;

import net.bytebuddy.jar.asm.Label;
import net.bytebuddy.jar.asm.MethodVisitor;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Makes the receiver of a no-argument, void request runner the thread's current request while the runner runs
 * (RESTEasy Reactive's {@code AbstractResteasyReactiveContext.run()}, which runs a request's handler chain, the
 * resource method included, on whichever thread the request is on):
 *
 * <pre>
 *   try { LimiterBridge.requestEnter(this); } catch (Throwable t) { }
 *   try { body, every return preceded by LimiterBridge.requestExit() }
 *   catch (any t) { LimiterBridge.requestExit(); throw t; }
 * </pre>
 *
 * Nothing is decided here: woven resource methods ({@code jaxrs:} rules) read their HTTP keys from that request
 * ({@code LimiterBridge.currentRequest()}). The frame is {@link ExitOnEveryPathAdvice}'s.
 */
final class RequestScopeAdvice extends ExitOnEveryPathAdvice {

    static final String BRIDGE = "dev/limiter/bootstrap/LimiterBridge";

    RequestScopeAdvice(MethodVisitor target, String owner, String descriptor, boolean frames) {
        super(target, owner, descriptor, frames, BRIDGE, "requestExit", 1);
    }

    @Override
    void enter() {
        mv.visitVarInsn(Opcodes.ALOAD, 0);
        mv.visitMethodInsn(Opcodes.INVOKESTATIC, BRIDGE, "requestEnter", "(Ljava/lang/Object;)V", false);
    }

    @Override
    void afterEnter(Label body) {
        mv.visitJumpInsn(Opcodes.GOTO, body);
    }
}
