package dev.limiter.rules;

import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.LongAdder;

/**
 * A rule's decision counters, kept across reloads while the rule's id survives (JMX reads them).
 *
 * <p>{@link LongAdder}s because every request of every thread increments them: striped cells do not contend
 * the way one atomic long would. Both the public fields and same-named accessors exist, so callers may use
 * either {@code stats.allowed.increment()} or {@code stats.allowed().increment()}.
 */
public final class RuleStats {

    /** Requests the rule admitted. */
    public final LongAdder allowed = new LongAdder();
    /** Requests the rule rejected (enforce mode). */
    public final LongAdder rejected = new LongAdder();
    /** Requests a dry-run rule would have rejected (and let through). */
    public final LongAdder wouldReject = new LongAdder();
    /** Times the limiter itself failed and {@code on-error} decided. */
    public final LongAdder errors = new LongAdder();
    /** Requests an {@code unless} entry exempted: matched, not counted against any limit. */
    public final LongAdder exempt = new LongAdder();
    /** Calls admitted with a wait ({@code on-limit: wait}): their permits were reserved for a later time. */
    public final LongAdder waited = new LongAdder();
    /** The waits those calls were given, in nanoseconds, summed. */
    public final LongAdder waitNanos = new LongAdder();
    /**
     * Calls that would have waited ({@code on-limit: wait}) but were rejected at once: the rule's
     * {@code max-waiters} were all waiting, or the thread must not park (an event loop).
     */
    public final LongAdder waitRefused = new LongAdder();
    /**
     * Answers {@code 429} or {@code 503} with {@code Retry-After} that paused a key of the rule
     * ({@code honor-retry-after}, {@code http-client:} rules).
     */
    public final LongAdder backOffs = new LongAdder();
    /** Calls parked right now for a reserved permit: a gauge, never reset, bounded by {@code max-waiters}. */
    private final AtomicInteger waiting = new AtomicInteger();

    public LongAdder allowed() {
        return allowed;
    }

    public LongAdder rejected() {
        return rejected;
    }

    public LongAdder wouldReject() {
        return wouldReject;
    }

    public LongAdder errors() {
        return errors;
    }

    public LongAdder exempt() {
        return exempt;
    }

    public LongAdder waited() {
        return waited;
    }

    public LongAdder waitNanos() {
        return waitNanos;
    }

    public LongAdder waitRefused() {
        return waitRefused;
    }

    public LongAdder backOffs() {
        return backOffs;
    }

    /**
     * Counts one more waiting call if fewer than {@code maxWaiters} wait (0: no bound); false if they are all
     * taken. Every true is followed by one {@link #leaveWaiting}.
     */
    public boolean enterWaiting(int maxWaiters) {
        for (;;) {
            int now = waiting.get();
            if (maxWaiters > 0 && now >= maxWaiters) {
                return false;
            }
            if (waiting.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** A waiting call's wait ended (its permit came, or it was interrupted or refunded). */
    public void leaveWaiting() {
        waiting.decrementAndGet();
    }

    /** Calls waiting right now. */
    public int waiting() {
        return waiting.get();
    }

    /** Zeroes every counter (JMX reset), not the {@link #waiting} gauge. */
    public void reset() {
        allowed.reset();
        rejected.reset();
        wouldReject.reset();
        errors.reset();
        exempt.reset();
        waited.reset();
        waitNanos.reset();
        waitRefused.reset();
        backOffs.reset();
    }
}
