package dev.limiter.redis;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.LongAdder;

/**
 * The store's circuit breaker: open = "Redis did not answer a moment ago, do not ask it".
 *
 * <p>Why it opens on the first failure and is closed only by the store's prober: while Redis is down, a request
 * must not pay the timeout (a slow failure is worse than a fast one for the application's threads), so one failed
 * round trip sends every following check straight to the {@link OnFailure} policy at the cost of one volatile
 * read. The prober (a daemon thread, never a request thread) pings Redis every probe interval and closes the
 * circuit when it answers. There is no half-open state letting request threads probe: that would make some
 * requests pay the timeout again on every probe.
 */
final class Circuit {

    private final AtomicBoolean open = new AtomicBoolean();
    private final LongAdder opens = new LongAdder();

    boolean isOpen() {
        return open.get();
    }

    /** Opens the circuit; true if this call opened it (the caller then wakes the prober). */
    boolean trip() {
        if (!open.get() && open.compareAndSet(false, true)) {
            opens.increment();
            return true;
        }
        return false;
    }

    void close() {
        open.set(false);
    }

    /** How many times the circuit opened. */
    long opens() {
        return opens.sum();
    }
}
