package dev.limiter.agent.decision;

import dev.limiter.agent.jfr.FlightEvents;
import dev.limiter.agent.jfr.FlightRecorderSupport;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.Tier;

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

    /**
     * Counts {@code admitted} for {@code rule} (in {@code enforce} or dry-run mode) and, when the call got an
     * override's {@code tier}, for that override too; returns the verdict. {@code out} is the decision's outcome
     * (its retry-after goes to the flight recorder).
     */
    static int count(Rule rule, Tier tier, boolean enforce, boolean admitted, String key, long[] out) {
        RuleStats stats = rule.stats();
        RuleStats own = tier.stats() == stats ? null : tier.stats();
        if (admitted) {
            stats.allowed().increment();
            if (own != null) {
                own.allowed().increment();
            }
            return ADMITTED;
        }
        if (enforce) {
            stats.rejected().increment();
            if (own != null) {
                own.rejected().increment();
            }
        } else {
            stats.wouldReject().increment();
            if (own != null) {
                own.wouldReject().increment();
            }
        }
        RejectedKeyFeed.record(stats, key);
        if (FlightRecorderSupport.AVAILABLE) {
            FlightEvents.rejected(rule, enforce, key, out[Outcome.RETRY_AFTER_MILLIS]);
        }
        return enforce ? REJECTED : WOULD_REJECT;
    }
}
