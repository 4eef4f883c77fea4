package dev.limiter.agent.outbound.okhttp;

import dev.limiter.agent.decision.Reservations;
import dev.limiter.agent.outbound.CallbackEnd;
import dev.limiter.agent.outbound.OutboundCallEnd;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.bootstrap.LimiterBridge;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An {@code enqueue} sent later, without holding a thread while it waits: the JDK's delayed executor (one timer
 * thread for the JVM) enqueues the call when its reserved time comes. A call cancelled meanwhile gives its reserved
 * permits back and is still enqueued, so OkHttp fails its callback as it fails every cancelled call.
 *
 * <p>A call made to wait for its permit ({@code reserved} not null) is enqueued untouched: it was decided. A call
 * made to wait out a {@code Retry-After} pause goes through the rules again when the pause is over.
 */
final class DelayedEnqueue implements Runnable {

    private final OkHttpApi api;
    private final Object call;
    private final Object callback;
    private final Reservations reserved;
    private final OutboundCallEnd end;

    private DelayedEnqueue(OkHttpApi api, Object call, Object callback, Reservations reserved, OutboundCallEnd end) {
        this.api = api;
        this.call = call;
        this.callback = callback;
        this.reserved = reserved;
        this.end = end;
    }

    static void schedule(OkHttpApi api, Object call, Object callback, long nanos, Reservations reserved,
            OutboundCallEnd end) {
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS)
                .execute(new DelayedEnqueue(api, call, callback, reserved, end));
    }

    @Override
    public void run() {
        try {
            if (reserved == null) {
                api.enqueue(call, callback); // decided again by the woven call
                return;
            }
            if (api.isCanceled(call)) {
                reserved.refund();
            } else {
                reserved.sent();
            }
            Object told = end == null ? callback
                    : CallbackEnd.wrap(api.callbackType, OkHttpLimiter.CALLBACK, callback, end);
            ClientBridge.untouched(() -> {
                try {
                    api.enqueue(call, told);
                } catch (Throwable t) {
                    throw new IllegalStateException(t);
                }
            });
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            if (reserved != null) {
                reserved.refund();
            }
            if (end != null) {
                end.accept(null, t);
            }
        }
    }
}
