package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;

/**
 * Token bucket: holds up to {@code capacity} permits (starts full) and refills {@code limit} per
 * {@code windowMillis}, continuously and exactly.
 *
 * <p>Exactness: refill is kept in integer fixed-point units (see {@link UnitScale}) where one millisecond adds
 * {@code r = limit / g} units and one permit costs {@code c = windowMillis / g} units ({@code g} = their gcd).
 * 10 per minute is r = 1, c = 6000: exactly one permit every 6 s; 1 per day is r = 1, c = 86 400 000;
 * 10 million per second is r = 10 000, c = 1. No rate is rounded.
 *
 * <p>State: a single word, the virtual time base {@code B} in units (slot 0), so one CAS per request:
 * <pre>
 *   fill(now)  = min(capacity * c, now * r - B)        (units available)
 *   take       : B' = max(B, now * r - capacity * c) + c   if fill(now) >= c
 * </pre>
 * A bucket that has been idle long enough is simply "full": {@code B} needs no refill writes. {@code B} is the
 * GCRA arrival time minus the capacity, so {@link #check} and {@link #reserve} run the leaky bucket's loop
 * ({@link Gcra}) on it.
 *
 * <p>Clock steps backwards: {@code B} ahead of now means "empty at now"; a rejection then moves {@code B} back
 * to now, so refill resumes from the new time instead of waiting for the old one (no negative tokens, no stuck
 * bucket). Refill lost in the step is not granted twice.
 *
 * <p>Stale clock readings: a thread may read the clock, wait (preempted) and reach its decision after others have
 * taken permits at a later time; with its old reading {@code B} then looks ahead of now. A rejection therefore
 * reads the clock again and decides again if it moved: only a reading that still stands (a real step back) moves
 * {@code B} back, and a rejection is linearizable at the moment it read {@code B}. Without that, a late check
 * undid the refill of the milliseconds it had missed, and the next check took it again (found by
 * {@code TokenBucketModelTest}, Lincheck).
 *
 * <p>Burst: up to {@code capacity} at once after an idle period, then the refill rate.
 *
 * <p>Eviction: slot 0 can hold any value, so {@link #retire} marks slot 1 ({@code UnitScale.RETIRED}, a tag no
 * scale has) under the conversion protocol and moves slot 0 off the value it judged full, so a check that read
 * it before loses its CAS; a check on a retired bucket rejects without reviving it (the tag compare it already
 * makes sends it off the fast path), the keyed store looks the key up again and no permit is taken on a dropped
 * bucket. See {@link UnitScale#retire}.
 *
 * <p>Reconfigure: the permits in the bucket carry over (as a count, clamped to the new capacity); refill
 * continues at the new rate. Slot 1 remembers the scale; see {@link UnitScale}.
 */
public final class TokenBucketStrategy implements RateLimitStrategy {

    public static final String NAME = "token-bucket";
    public static final TokenBucketStrategy INSTANCE = new TokenBucketStrategy();

    public TokenBucketStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        long nowUnits = config.clock().millis() * config.unitsPerMilli();
        return new Bucket(nowUnits - config.capacityUnits(), UnitScale.initial(config));
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        return check(bucket, config, 1, out);
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long permits, long[] out) {
        return Gcra.check(bucket, config, permits, out, true);
    }

    /**
     * Takes the permits now or from the future: the base B may run ahead of now (a negative fill: permits
     * promised to waiters), by at most what accrues within {@code maxWaitNanos}. One CAS, like {@link #check}.
     * A base further ahead than {@link #MAX_WAIT_NANOS} can only come from a clock step back; it is read, and on
     * a rejection written back, as exactly that far ahead.
     */
    @Override
    public long reserve(Bucket bucket, LimitConfig config, long permits, long maxWaitNanos, long[] out) {
        return Gcra.reserve(bucket, config, permits, maxWaitNanos, out, true);
    }

    @Override
    public boolean reserves() {
        return true;
    }

    /**
     * Moves the base back by the permits' units. A bucket that filled up meanwhile reads as full, not fuller (the
     * fill is capped at the capacity); one reconfigured (another scale) or retired in between keeps the permits.
     */
    @Override
    public void refund(Bucket bucket, LimitConfig config, long permits, long stamp) {
        UnitScale.refund(bucket, config, config.unitsPerPermit() * permits);
    }

    @Override
    public boolean takesSeveral() {
        return true;
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        long now = config.clock().millis();
        long perMilli = config.unitsPerMilli();
        long cost = config.unitsPerPermit();
        long capacity = config.capacityUnits();
        long fill = fill(bucket, config, now);
        long remaining = UnitScale.permits(fill, cost);
        long reset = now + UnitScale.millisFor(capacity - fill, perMilli);
        if (remaining == 0) {
            Outcome.reject(out, 0, reset, UnitScale.millisFor(cost - fill, perMilli), config.limit());
        } else {
            Outcome.allow(out, remaining, reset, config.limit());
        }
        return remaining;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return fill(bucket, config, config.clock().millis()) >= config.capacityUnits();
    }

    /** Units available at {@code now}, read-only; converts a bucket still in an older scale on the fly. */
    private static long fill(Bucket bucket, LimitConfig config, long now) {
        long scale;
        long base;
        do { // a consistent (scale, value) pair: the same seqlock-style double read as check
            scale = UnitScale.stableScale(bucket);
            base = bucket.slot0();
        } while (bucket.slot1() != scale);
        if (scale == UnitScale.RETIRED) {
            return config.capacityUnits(); // reads as a fresh bucket
        }
        return UnitScale.amount(scale, base, now, config, true);
    }

    /** Retires an idle bucket by marking slot 1; see {@link UnitScale#retire}. */
    @Override
    public boolean retire(Bucket bucket, LimitConfig config) {
        return UnitScale.retire(bucket, config, true);
    }

    @Override
    public boolean isRetired(Bucket bucket) {
        return bucket.slot1() == UnitScale.RETIRED;
    }

    @Override
    public String toString() {
        return NAME;
    }
}
