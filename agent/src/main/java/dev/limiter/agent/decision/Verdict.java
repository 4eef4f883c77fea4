package dev.limiter.agent.decision;

import dev.limiter.agent.jfr.FlightEvents;
import dev.limiter.agent.jfr.FlightRecorderSupport;
import dev.limiter.rules.Rule;

/**
 * What one rule's answer means for one call, counted in the rule's statistics the same way for every entry
 * point: admitted, over the limit in dry-run (counted, let through), or rejected. Rejections of both kinds feed
 * the rule's top rejected keys ({@link RejectedKeyFeed}) and, when a recording enables it, a JFR
 * {@code dev.limiter.Rejection} ({@link FlightEvents}). Allocation-free: counters are {@code LongAdder}s.
 */
final class Verdict {

    static final int ADMITTED = 0;
    static final int WOULD_REJECT = 1;
    static final int REJECTED = 2;

    private Verdict() {
    }

    /** Counts {@code admitted} for {@code rule} (in {@code enforce} or dry-run mode) and returns the verdict. */
    static int count(Rule rule, boolean enforce, boolean admitted, String key) {
        if (admitted) {
            rule.stats().allowed().increment();
            return ADMITTED;
        }
        if (enforce) {
            rule.stats().rejected().increment();
        } else {
            rule.stats().wouldReject().increment();
        }
        RejectedKeyFeed.record(rule.stats(), key);
        if (FlightRecorderSupport.AVAILABLE) {
            FlightEvents.rejected(rule, enforce, key);
        }
        return enforce ? REJECTED : WOULD_REJECT;
    }
}
