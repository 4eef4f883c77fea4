package dev.limiter.rules.compile;

import dev.limiter.core.LimitConfig;
import dev.limiter.rules.condition.Condition;
import dev.limiter.rules.yaml.YamlNode;
import java.util.List;
import java.util.Set;

/**
 * A rule's validated policy before it gets live state: its limits (shortest window first), overrides, conditions
 * and cost.
 *
 * @param limits       the rule's own limits
 * @param overrides    in file order (the first that applies wins)
 * @param match        the request condition of {@code match}, or null
 * @param unless       the exemptions
 * @param cost         permits per call ({@code costArgument < 0})
 * @param costArgument the argument the cost is read from, or -1
 * @param maxWaitNanos the longest a call waits for its permits ({@code on-limit: wait}), 0 to reject at once
 * @param maxWaiters   the most calls of the rule waiting at once ({@code max-waiters}), 0 for no bound
 */
record PolicyDraft(List<Limit> limits, List<Override> overrides, Condition match, List<Condition> unless, long cost,
        int costArgument, long maxWaitNanos, int maxWaiters) {

    PolicyDraft(List<Limit> limits, List<Override> overrides, Condition match, List<Condition> unless, long cost,
            int costArgument) {
        this(limits, overrides, match, unless, cost, costArgument, 0, 0);
    }

    /**
     * This policy with {@code on-limit: wait} for at most {@code maxWaitNanos} (0: {@code on-limit: reject}) and at
     * most {@code maxWaiters} calls waiting at once (0: no bound).
     */
    PolicyDraft waiting(long maxWaitNanos, int maxWaiters) {
        return new PolicyDraft(limits, overrides, match, unless, cost, costArgument, maxWaitNanos, maxWaiters);
    }

    /** One limit; {@code at} is where a store's refusal points. */
    record Limit(LimitConfig config, YamlNode at) {

        /** The live-state slot of this limit in tier {@code tier}: kept across reloads while it has this window. */
        String slot(String tier) {
            return tier + "/" + config.windowMillis() + "ms";
        }
    }

    /** One override: by {@code keys} or by {@code when}; no limits means unlimited. */
    record Override(String name, List<Limit> limits, Set<String> keys, Condition when) {
    }
}
