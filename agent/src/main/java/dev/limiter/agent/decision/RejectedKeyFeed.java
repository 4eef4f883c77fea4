package dev.limiter.agent.decision;

import dev.limiter.rules.RuleStats;
import dev.limiter.rules.key.PrintableKey;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Where the reject path reports the rejected key, to the {@link RejectedKeySink} of its rule.
 *
 * <p>Static so the decision needs no reference to whoever watches: one {@code record} call on the reject path, a
 * lock-free map read that finds nothing until someone subscribes (the JMX MBeans, after start-up). Sinks are
 * keyed by the rule's {@link RuleStats} instance (identity), which lives exactly as long as the rule's counters
 * do: a rule that keeps its counters across a reload keeps its sink, one whose state is replaced gets a new one.
 * The subscriber keeps one sink per rule in force, so the map is bounded by the rules.
 */
public final class RejectedKeyFeed {

    private static final Map<RuleStats, RejectedKeySink> BY_RULE = new ConcurrentHashMap<>();

    private RejectedKeyFeed() {
    }

    /**
     * Counts a rejection (or a dry-run would-reject) of {@code key} by the rule owning {@code stats}. The sink gets
     * the key's {@link PrintableKey} form: whoever shows it (a JMX console, a script printing it, a log) must not
     * be handed the client's CR, LF or escape sequences; distinct keys stay distinct.
     */
    static void record(RuleStats stats, String key) {
        RejectedKeySink sink = BY_RULE.get(stats);
        if (sink != null) {
            sink.offer(PrintableKey.of(key));
        }
    }

    /** The sink of the rule owning {@code stats}, subscribed with {@code created} if it has none yet. */
    public static RejectedKeySink subscribe(RuleStats stats, RejectedKeySink created) {
        RejectedKeySink existing = BY_RULE.putIfAbsent(stats, created);
        return existing == null ? created : existing;
    }

    /** The sink of the rule owning {@code stats}, or null. */
    public static RejectedKeySink of(RuleStats stats) {
        return BY_RULE.get(stats);
    }

    /** Stops feeding a rule that is no longer in force. */
    public static void unsubscribe(RuleStats stats) {
        BY_RULE.remove(stats);
    }
}
