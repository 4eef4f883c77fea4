package dev.limiter.agent.jmx;

import dev.limiter.rules.RuleStats;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the reject path reports the rejected key, to the {@link TopKeys} summary of its rule.
 *
 * <p>Static so the servlet code needs no reference to JMX: one {@code record} call on the reject path, a
 * lock-free map read that finds nothing until the JMX MBeans are registered. Summaries are keyed by the rule's
 * {@link RuleStats} instance (identity), which lives exactly as long as the rule's counters do: a rule that keeps
 * its counters across a reload keeps its top keys, one whose state is replaced starts a new summary. Only
 * {@link JmxRegistrar} adds and removes summaries, one per rule in force, so the map is bounded by the rules.
 */
public final class RejectedKeys {

    private static final Map<RuleStats, TopKeys> BY_RULE = new ConcurrentHashMap<>();

    private RejectedKeys() {
    }

    /**
     * Counts a rejection (or a dry-run would-reject) of {@code key} by the rule owning {@code stats}. Reject path
     * only: it may drop the sample under contention and never blocks.
     */
    public static void record(RuleStats stats, String key) {
        TopKeys top = BY_RULE.get(stats);
        if (top != null) {
            top.offer(key);
        }
    }

    /** The summary of the rule owning {@code stats}, created if needed. */
    static TopKeys track(RuleStats stats) {
        return BY_RULE.computeIfAbsent(stats, s -> new TopKeys(TopKeys.DEFAULT_SLOTS));
    }

    /** The summary of the rule owning {@code stats}, or null if it is not tracked. */
    static TopKeys of(RuleStats stats) {
        return BY_RULE.get(stats);
    }

    /** Stops tracking a rule that is no longer in force. */
    static void untrack(RuleStats stats) {
        BY_RULE.remove(stats);
    }
}
