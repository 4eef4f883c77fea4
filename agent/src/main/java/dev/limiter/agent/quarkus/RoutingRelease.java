package dev.limiter.agent.quarkus;

import dev.limiter.agent.decision.HeldPermits;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;

/**
 * Gives back a request's concurrency permits when the request really ends: Vert.x Web runs the routing context's
 * end handlers once the response has ended, failed, or the connection closed under it (the client went away
 * mid-request), and the promise among them completes the stage this consumer waits on ({@link RoutingApi#whenEnded}).
 * The released flag makes the give-back happen once whatever runs first (registering failed, then a late end);
 * it is this object itself (it extends {@link AtomicBoolean}), so a request that holds permits allocates this
 * object, the permits it took over ({@link HeldPermits#takeAll}) and Vert.x's promise and its stage.
 */
final class RoutingRelease extends AtomicBoolean implements BiConsumer<Object, Throwable> {

    private static final long serialVersionUID = 1L;

    private final transient HeldPermits permits;

    RoutingRelease(HeldPermits permits) {
        this.permits = permits;
    }

    /** The end handlers ran: how the request ended does not matter. */
    @Override
    public void accept(Object result, Throwable failure) {
        release();
    }

    /** Gives the permits back, once; never throws. */
    void release() {
        if (compareAndSet(false, true)) {
            permits.releaseTo(0);
        }
    }
}
