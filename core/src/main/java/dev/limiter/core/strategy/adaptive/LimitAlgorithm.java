package dev.limiter.core.strategy.adaptive;

/**
 * Moves an adaptive limit once per sampling window, from what the window measured. Pure: no state of its own
 * (the bucket keeps it), so one instance serves every key; called by one thread at a time per key.
 */
interface LimitAlgorithm {

    /**
     * The next limit, before it is clamped into the rule's bounds.
     *
     * @param limit the limit in force during the window
     * @param meanNanos the window's mean latency of admitted calls
     * @param noLoadNanos the service's latency when nothing queues (the bucket's estimate)
     * @param reachedLimit true if the calls in flight reached half the limit in the window: only then can the
     *     limit be what held calls back, so only then may it grow
     */
    double next(double limit, double meanNanos, double noLoadNanos, boolean reachedLimit);
}
