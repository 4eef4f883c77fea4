package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.InFlightCount;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;

/**
 * Bulkhead: at most {@code limit} admitted calls in flight per key; time plays no part in admission.
 *
 * <p>State: slot 0 = calls in flight, taken, given back and retired as {@link InFlightCount} says. The agent calls
 * {@code release} exactly once from the exit path of every admitted call; a keyed store drops a bucket only
 * after {@link #retire}, so a permit is never taken on a bucket that has left the map (its release would be lost).
 *
 * <p>Reconfigure: the calls in flight carry over; a lower limit rejects new calls until enough have finished.
 */
public final class ConcurrencyStrategy implements RateLimitStrategy {

    public static final String NAME = "concurrency";
    public static final ConcurrencyStrategy INSTANCE = new ConcurrencyStrategy();

    public ConcurrencyStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    /** Its only budget is the limit. */
    @Override
    public boolean usesCapacity() {
        return false;
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        return new Bucket();
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        return InFlightCount.enter(bucket, config.limit(), config, out) > 0;
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        return InFlightCount.peek(bucket, config.limit(), config, out);
    }

    @Override
    public void release(Bucket bucket, LimitConfig config) {
        InFlightCount.leave(bucket);
    }

    @Override
    public boolean releasesOnExit() {
        return true;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return InFlightCount.isIdle(bucket);
    }

    @Override
    public boolean retire(Bucket bucket, LimitConfig config) {
        return InFlightCount.retire(bucket);
    }

    @Override
    public boolean isRetired(Bucket bucket) {
        return InFlightCount.isRetired(bucket);
    }

    /** Calls in flight on {@code bucket} (for tests and JMX). */
    public static long inFlight(Bucket bucket) {
        return InFlightCount.count(bucket);
    }

    @Override
    public String toString() {
        return NAME;
    }
}
