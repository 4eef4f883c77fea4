package dev.limiter.agent.method;

import dev.limiter.bootstrap.LimiterBridge;
import net.bytebuddy.asm.Advice;

/**
 * The code inlined at the start and end of every woven JAX-RS resource method and plain method.
 *
 * <p>Inlined into application classes, so it touches nothing but {@link LimiterBridge} (bootstrap path). The
 * site id, the key argument and the cost are bound per method when it is woven ({@link SiteId},
 * {@link KeyArgument}, {@link CostArgument}).
 *
 * <p>Enter returns what the bridge decided: null (run, nothing held), a {@link Throwable} (the rejection:
 * {@code skipOn = Throwable.class} skips the body, so the method returns its default value and exit replaces
 * that with the throw), or a token for the exit. Exit runs however the method ends; it rethrows the rejection by
 * assigning it to {@code @Thrown}, which Byte Buddy throws after the exit advice, and otherwise hands the token
 * back so concurrency permits are released. {@code suppress} only covers failures of the advice itself (say the
 * bridge is missing): the rejection is a value, never thrown inside the advice, so it is not swallowed.
 */
public final class MethodAdvice {

    private MethodAdvice() {
    }

    @Advice.OnMethodEnter(skipOn = Throwable.class, suppress = Throwable.class)
    public static Object enter(@SiteId int site, @KeyArgument Object keyArgument, @CostArgument long cost) {
        return LimiterBridge.methodEnter(site, keyArgument, cost);
    }

    @Advice.OnMethodExit(onThrowable = Throwable.class, suppress = Throwable.class)
    public static void exit(@SiteId int site, @Advice.Enter Object token,
            @Advice.Thrown(readOnly = false) Throwable thrown) {
        if (token instanceof Throwable) {
            thrown = (Throwable) token;
        } else if (token != null) {
            LimiterBridge.methodExit(site, token);
        }
    }
}
