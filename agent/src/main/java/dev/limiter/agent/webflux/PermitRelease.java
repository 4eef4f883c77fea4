package dev.limiter.agent.webflux;

import dev.limiter.agent.decision.HeldPermits;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;

/**
 * Gives back an exchange's concurrency permits when the exchange really ends: the {@code doFinally} consumer
 * of the {@code Mono<Void>} the handler returned, so it runs once the response is complete, has failed, or the
 * subscription was cancelled (the client went away mid-stream). The released flag makes the give-back happen
 * once whatever runs first (a handler that threw, then a late signal); it is this object itself (it extends
 * {@link AtomicBoolean}) so an exchange that holds permits allocates this one object, the permits it took over
 * ({@link HeldPermits#takeAll}: one instance and its two arrays) and Reactor's {@code doFinally} operator.
 */
final class PermitRelease extends AtomicBoolean implements Consumer<Object> {

    private static final long serialVersionUID = 1L;

    private final transient HeldPermits permits;
    final transient WebfluxApi api;

    PermitRelease(HeldPermits permits, WebfluxApi api) {
        this.permits = permits;
        this.api = api;
    }

    /** Reactor's {@code doFinally}: the signal (complete, error, cancel) does not matter. */
    @Override
    public void accept(Object signal) {
        release();
    }

    /** Gives the permits back, once; never throws. */
    void release() {
        if (compareAndSet(false, true)) {
            permits.releaseTo(0);
        }
    }
}
