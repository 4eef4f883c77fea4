package dev.limiter.rules;

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

    /** Zeroes every counter (JMX reset). */
    public void reset() {
        allowed.reset();
        rejected.reset();
        wouldReject.reset();
        errors.reset();
        exempt.reset();
        waited.reset();
        waitNanos.reset();
    }
}
