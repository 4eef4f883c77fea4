package dev.limiter.rules;

import dev.limiter.rules.condition.Condition;
import dev.limiter.rules.condition.RequestFacts;

/**
 * What a rule asks of a call it matched, beyond its path or names: the request {@link Condition} it applies
 * under, the exemptions ({@code unless}), the limits ({@link Tier}) and overrides by key or request, and the
 * call's cost. Immutable, compiled when the rules load.
 */
public final class Policy {

    private static final Condition[] NO_CONDITIONS = new Condition[0];
    private static final PolicyOverride[] NO_OVERRIDES = new PolicyOverride[0];

    private final Condition match;
    private final Condition[] unless;
    private final Tier main;
    private final PolicyOverride[] overrides;
    private final long cost;
    private final int costArgument;
    private final long maxWaitNanos;
    private final int maxWaiters;

    /**
     * @param match        the request condition the rule applies under, or null (always)
     * @param unless       exemptions: a call meeting any of them is not counted
     * @param main         the rule's own limits
     * @param overrides    tiers for some keys or requests; the first that applies wins
     * @param cost         permits a call takes (when {@code costArgument < 0})
     * @param costArgument the argument a method call's cost is read from, or -1
     */
    public Policy(Condition match, Condition[] unless, Tier main, PolicyOverride[] overrides, long cost,
            int costArgument) {
        this(match, unless, main, overrides, cost, costArgument, 0);
    }

    /**
     * As above, for a rule that waits: {@code maxWaitNanos} is the longest a call waits for its permits
     * ({@code on-limit: wait}), 0 to reject it at once ({@code on-limit: reject}).
     */
    public Policy(Condition match, Condition[] unless, Tier main, PolicyOverride[] overrides, long cost,
            int costArgument, long maxWaitNanos) {
        this(match, unless, main, overrides, cost, costArgument, maxWaitNanos, 0);
    }

    /**
     * As above, with at most {@code maxWaiters} calls of the rule waiting at once ({@code max-waiters}; 0: no
     * bound): a call that would wait beyond them is rejected at once.
     */
    public Policy(Condition match, Condition[] unless, Tier main, PolicyOverride[] overrides, long cost,
            int costArgument, long maxWaitNanos, int maxWaiters) {
        this.maxWaitNanos = maxWaitNanos;
        this.maxWaiters = maxWaiters;
        this.match = match;
        this.unless = unless == null ? NO_CONDITIONS : unless.clone();
        this.main = main;
        this.overrides = overrides == null ? NO_OVERRIDES : overrides.clone();
        this.cost = cost;
        this.costArgument = costArgument;
    }

    /** One tier, cost 1, no conditions: a v1 rule. */
    public static Policy single(Tier main) {
        return new Policy(null, null, main, null, 1, -1);
    }

    /** True if {@link #applies} or {@link #exempts} need to ask the request anything. */
    public boolean conditional() {
        return match != null || unless.length > 0;
    }

    /** True unless the rule's request condition rules the call out (then the rule does not count it at all). */
    public boolean applies(RequestFacts request) throws Throwable {
        return match == null || match.holds(request);
    }

    /** True if an {@code unless} entry exempts the call: counted as exempt, limited by nothing of this rule. */
    public boolean exempts(RequestFacts request) throws Throwable {
        for (Condition condition : unless) {
            if (condition.holds(request)) {
                return true;
            }
        }
        return false;
    }

    /** The tier for a call with {@code key}: the first override that applies, else the rule's own limits. */
    public Tier tier(String key, RequestFacts request) throws Throwable {
        for (PolicyOverride override : overrides) {
            if (override.applies(key, request)) {
                return override.tier();
            }
        }
        return main;
    }

    public Condition match() {
        return match;
    }

    public Condition[] unless() {
        return unless.clone();
    }

    public Tier main() {
        return main;
    }

    public PolicyOverride[] overrides() {
        return overrides.clone();
    }

    /** True if the rule has overrides (then {@link #tier} has work to do). */
    public boolean hasOverrides() {
        return overrides.length > 0;
    }

    /** The fixed cost of a call ({@code cost: N}, 1 by default); see {@link #costArgument}. */
    public long cost() {
        return cost;
    }

    /** True if a call waits for its permits ({@code on-limit: wait}) instead of being rejected at once. */
    public boolean waits() {
        return maxWaitNanos > 0;
    }

    /** The longest a call waits for its permits, in nanoseconds; 0 for {@code on-limit: reject}. */
    public long maxWaitNanos() {
        return maxWaitNanos;
    }

    /** The most calls of the rule that may wait at once ({@code max-waiters}); 0 for no bound. */
    public int maxWaiters() {
        return maxWaiters;
    }

    /** The method argument a call's cost is read from ({@code cost: arg:N}), or -1 for the fixed {@link #cost}. */
    public int costArgument() {
        return costArgument;
    }
}
