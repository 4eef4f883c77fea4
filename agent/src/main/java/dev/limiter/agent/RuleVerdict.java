package dev.limiter.agent;

import dev.limiter.agent.jmx.RejectedKeys;
import dev.limiter.rules.Rule;

/**
 * What one rule's answer means for one call, counted in the rule's statistics the same way for servlet requests
 * and woven methods: admitted, over the limit in dry-run (counted, let through), or rejected. Rejections of both
 * kinds feed the rule's top rejected keys. Allocation-free: counters are {@code LongAdder}s.
 */
public final class RuleVerdict {

    public static final int ADMITTED = 0;
    public static final int WOULD_REJECT = 1;
    public static final int REJECTED = 2;

    private RuleVerdict() {
    }

    /** Counts {@code admitted} for {@code rule} (in {@code enforce} or dry-run mode) and returns the verdict. */
    public static int count(Rule rule, boolean enforce, boolean admitted, String key) {
        if (admitted) {
            rule.stats().allowed().increment();
            return ADMITTED;
        }
        if (enforce) {
            rule.stats().rejected().increment();
        } else {
            rule.stats().wouldReject().increment();
        }
        RejectedKeys.record(rule.stats(), key);
        return enforce ? REJECTED : WOULD_REJECT;
    }
}
