package dev.limiter.demo.driver;

/**
 * One rule's counters as read from its MBean {@code dev.limiter:type=Rule,name=<id>}.
 *
 * <p>-1 stands for an attribute the MBean does not have (yet): the table shows it as "-". Limit, window and
 * capacity come from the MBean, not the driver's copy of the rules file, so the table follows a live reload.
 */
record RuleRow(String id, String strategy, String mode, long allowed, long rejected, long wouldReject,
        long activeKeys, long limit, long windowMillis, long capacity) {
}
