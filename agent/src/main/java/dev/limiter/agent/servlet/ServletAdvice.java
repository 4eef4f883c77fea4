package dev.limiter.agent.servlet;

import dev.limiter.bootstrap.LimiterBridge;
import net.bytebuddy.asm.Advice;

/**
 * The code inlined at the start and end of every {@code Servlet.service} and {@code Filter.doFilter}.
 *
 * <p>Inlined advice runs in the application's class loader, which sees the servlet API and the bootstrap path
 * but none of the agent's classes, so this advice touches nothing but {@link LimiterBridge}. The arguments are
 * taken as {@code Object}, which lets the same advice serve {@code javax.servlet} and {@code jakarta.servlet}
 * and keeps servlet types out of the bytecode we inline.
 *
 * <p>Enter returns true to reject: {@code skipOn = OnNonDefaultValue} then skips the method body (the bridge
 * has already written the 429). Exit always runs, also after a skip or an exception, to end the request
 * (release concurrency permits, clear the thread's request). {@code suppress = Throwable.class}: nothing the
 * advice throws reaches the application; the bridge already catches everything it can.
 */
public final class ServletAdvice {

    private ServletAdvice() {
    }

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static boolean enter(@Advice.Argument(0) Object request, @Advice.Argument(1) Object response) {
        return LimiterBridge.servletEnter(request, response);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit() {
        LimiterBridge.servletExit();
    }
}
