package dev.limiter.demo.driver;

import java.util.List;

/**
 * One rule's counters as read from its MBean {@code dev.limiter:type=Rule,name=<id>}.
 *
 * <p>-1 stands for an attribute the MBean does not have (yet): the table shows it as "-". Limit, window and
 * capacity come from the MBean, not the driver's copy of the rules file, so the table follows a live reload.
 * {@code limits} is the rule's own limits as the MBean words them ({@code 20/1s, 300/1m}; null if it has no such
 * attribute), {@code overrides} one line per override with its own counts (empty if none).
 */
record RuleRow(String id, String strategy, String mode, long allowed, long rejected, long wouldReject,
        long activeKeys, long limit, long windowMillis, long capacity, String limits, List<String> overrides) {
}
