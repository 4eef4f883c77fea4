package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.decision.Reservations;
import dev.limiter.agent.outbound.CallbackEnd;
import dev.limiter.agent.outbound.OutboundCallEnd;
import dev.limiter.bootstrap.ClientBridge;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An exchange step made to wait, run later without holding a thread: the JDK's delayed executor (one timer thread
 * for the JVM) runs it when its time comes. An exchange the caller cancelled meanwhile gives its reserved permits
 * back then and is not sent. One made to wait for its permit ({@code reserved} not null) runs untouched: it was
 * decided; one made to wait out a {@code Retry-After} pause goes through the rules again.
 */
final class DelayedExecution implements Runnable {

    private final ApacheAsyncApi api;
    private final Object client;
    private final Object[] step;
    private final Reservations reserved;
    private final OutboundCallEnd end;

    private DelayedExecution(ApacheAsyncApi api, Object client, Object[] step, Reservations reserved,
            OutboundCallEnd end) {
        this.api = api;
        this.client = client;
        this.step = step;
        this.reserved = reserved;
        this.end = end;
    }

    static void schedule(ApacheAsyncApi api, Object client, Object[] step, long nanos, Reservations reserved,
            OutboundCallEnd end) {
        CompletableFuture.delayedExecutor(nanos, TimeUnit.NANOSECONDS)
                .execute(new DelayedExecution(api, client, step, reserved, end));
    }

    @Override
    public void run() {
        boolean cancelled;
        try {
            cancelled = api.cancelled(step[2]);
        } catch (Throwable t) {
            cancelled = false;
        }
        if (reserved == null) {
            if (!cancelled) {
                new Execution(api, client, step, step[4]).run(); // decided again by the woven step
            }
            return;
        }
        if (cancelled) {
            reserved.refund();
            if (end != null) {
                end.accept(null, null);
            }
            return;
        }
        reserved.sent();
        Object callback = end == null ? step[4] : CallbackEnd.wrap(api.callbackType, ApacheAsyncLimiter.CALLBACK, step[4], end);
        ClientBridge.untouched(new Execution(api, client, step, callback));
    }
}
