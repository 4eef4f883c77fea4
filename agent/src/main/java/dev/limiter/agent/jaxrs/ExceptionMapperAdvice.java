package dev.limiter.agent.jaxrs;

import dev.limiter.bootstrap.LimiterBridge;
import net.bytebuddy.asm.Advice;
import net.bytebuddy.implementation.bytecode.assign.Assigner;

/**
 * Inlined into {@code ExceptionMapper.toResponse} of application mappers: when the exception to map is a
 * rejection the limiter threw, the mapper body is skipped and the limiter's own response is returned, so an
 * application's {@code ExceptionMapper<Throwable>} cannot turn our 429 into a 500.
 *
 * <p>Inlined into application classes, so it touches nothing but {@link LimiterBridge} (bootstrap path) and
 * handles the exception and the response as {@code Object}: the same advice serves javax and jakarta. Enter
 * returns the response (non-null skips the body); exit puts it in place of the skipped body's default null.
 * {@code suppress = Throwable.class}: a failure here leaves the application's mapper running as it would
 * without the agent.
 */
public final class ExceptionMapperAdvice {

    private ExceptionMapperAdvice() {
    }

    @Advice.OnMethodEnter(skipOn = Advice.OnNonDefaultValue.class, suppress = Throwable.class)
    public static Object enter(@Advice.Argument(0) Object exception) {
        return LimiterBridge.rejectionResponse(exception);
    }

    @Advice.OnMethodExit(suppress = Throwable.class)
    public static void exit(@Advice.Enter Object limiterResponse,
            @Advice.Return(readOnly = false, typing = Assigner.Typing.DYNAMIC) Object returned) {
        if (limiterResponse != null) {
            returned = limiterResponse;
        }
    }
}
