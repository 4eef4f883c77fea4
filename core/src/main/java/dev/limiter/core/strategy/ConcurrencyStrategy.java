package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;

/**
 * Bulkhead: at most {@code limit} admitted calls in flight per key; time plays no part in admission.
 *
 * <p>State: slot 0 = calls in flight. {@link #check} increments it by CAS only while below the limit;
 * {@link #release} decrements it by CAS only while above zero, so a release without an acquire (or a double
 * release) can never drive it negative. The agent calls {@code release} exactly once
 * from the exit path of every admitted call.
 *
 * <p>Eviction: a keyed store may only drop a bucket after {@link #retire} has CASed it from 0 in flight to the
 * {@code RETIRED} marker. A concurrent {@code check} then sees the marker, rejects and looks the key up again,
 * so a permit can never be taken on a bucket that has left the map (its release would be lost).
 *
 * <p>Out values: {@code reset} is "now" (nothing to wait for in time), and a rejection's retry-after is the
 * rule's window, used as a hint of how long calls usually take.
 *
 * <p>Reconfigure: the calls in flight carry over; a lower limit rejects new calls until enough have finished.
 */
public final class ConcurrencyStrategy implements RateLimitStrategy {

    public static final String NAME = "concurrency";
    public static final ConcurrencyStrategy INSTANCE = new ConcurrencyStrategy();

    /** Slot 0 value of a retired bucket. */
    static final long RETIRED = Long.MIN_VALUE;

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
        long limit = config.limit();
        for (;;) {
            long inFlight = bucket.slot0();
            if (inFlight < 0 || inFlight >= limit) {
                long now = config.clock().millis();
                return Outcome.reject(out, 0, now, config.windowMillis(), limit);
            }
            if (bucket.casSlot0(inFlight, inFlight + 1)) {
                return Outcome.allow(out, limit - inFlight - 1, config.clock().millis(), limit);
            }
        }
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        long limit = config.limit();
        long inFlight = bucket.slot0();
        long now = config.clock().millis();
        if (inFlight < 0) {
            inFlight = 0;
        }
        long remaining = inFlight >= limit ? 0 : limit - inFlight;
        if (remaining == 0) {
            Outcome.reject(out, 0, now, config.windowMillis(), limit);
        } else {
            Outcome.allow(out, remaining, now, limit);
        }
        return remaining;
    }

    @Override
    public void release(Bucket bucket, LimitConfig config) {
        for (;;) {
            long inFlight = bucket.slot0();
            if (inFlight <= 0 || bucket.casSlot0(inFlight, inFlight - 1)) {
                return;
            }
        }
    }

    @Override
    public boolean releasesOnExit() {
        return true;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return bucket.slot0() <= 0;
    }

    @Override
    public boolean retire(Bucket bucket, LimitConfig config) {
        for (;;) {
            long inFlight = bucket.slot0();
            if (inFlight == RETIRED) {
                return true; // idempotent, also when another thread retired it first
            }
            if (inFlight != 0) {
                return false;
            }
            if (bucket.casSlot0(0, RETIRED)) {
                return true;
            }
        }
    }

    @Override
    public boolean isRetired(Bucket bucket) {
        return bucket.slot0() == RETIRED;
    }

    /** Calls in flight on {@code bucket} (for tests and JMX). */
    public static long inFlight(Bucket bucket) {
        long n = bucket.slot0();
        return n < 0 ? 0 : n;
    }

    @Override
    public String toString() {
        return NAME;
    }
}
