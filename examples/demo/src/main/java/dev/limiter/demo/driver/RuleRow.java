package dev.limiter.demo.driver;

import java.util.List;

/**
 * One rule's counters as read from its MBean {@code dev.limiter:type=Rule,name=<id>}.
 *
 * <p>-1 stands for an attribute the MBean does not have (yet): the table shows it as "-". Limit, window and
 * capacity come from the MBean, not the driver's copy of the rules file, so the table follows a live reload.
 * {@code limits} is the rule's own limits as the MBean words them ({@code 20/1s, 300/1m}; null if it has no such
 * attribute), {@code overrides} one line per override with its own counts (empty if none). {@code key} and
 * {@code source} (where the rule is declared: {@code rules.yml:37}, or {@code annotation Class#method} for a
 * {@code @Limit}) are null when absent; {@code waited} counts calls that waited ({@code on-limit: wait}).
 */
record RuleRow(String id, String strategy, String mode, long allowed, long rejected, long wouldReject,
        long activeKeys, long limit, long windowMillis, long capacity, String limits, List<String> overrides,
        String key, String source, long waited, long waitMillisTotal) {

    /** A row of an MBean without key, source or wait counters (older agents; tests). */
    RuleRow(String id, String strategy, String mode, long allowed, long rejected, long wouldReject,
            long activeKeys, long limit, long windowMillis, long capacity, String limits, List<String> overrides) {
        this(id, strategy, mode, allowed, rejected, wouldReject, activeKeys, limit, windowMillis, capacity, limits,
                overrides, null, null, -1, -1);
    }

    /** True if the rule comes from a {@code @Limit} annotation rather than the rules file. */
    boolean annotated() {
        return source != null && source.startsWith("annotation ");
    }
}
