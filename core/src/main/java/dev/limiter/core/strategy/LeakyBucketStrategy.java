package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;

/**
 * Leaky bucket as a meter, implemented as GCRA (the Generic Cell Rate Algorithm of ATM networks): requests
 * are admitted at a constant rate of one every {@code windowMillis / limit} ms, with a burst tolerance of
 * {@code capacity} permits. With {@code capacity = 1} admission is perfectly smooth (never two requests closer
 * than the emission interval); with a larger capacity it tolerates that many back to back, then paces.
 *
 * <p>State: one word, the theoretical arrival time {@code TAT} in the exact fixed-point units of
 * {@link UnitScale} (emission interval {@code T} = one permit = {@code c} units, tolerance = capacity * c):
 * <pre>
 *   debt(now) = max(0, TAT - now)          (units of admitted work not yet "leaked")
 *   admit if debt + T &lt;= capacity * T;  then TAT' = max(TAT, now) + T      (one CAS)
 * </pre>
 * Mathematically this is the same admission as a token bucket of the same capacity and rate; the difference is
 * the state: the TAT is "when the bucket is empty again", so reset and retry-after come straight from it, and
 * the configuration usually differs (a leaky bucket is used with a small capacity to smooth traffic, a token
 * bucket with a large one to allow bursts). {@link #check} and {@link #reserve} run one loop with the token bucket
 * ({@link Gcra}), which reads its base as this arrival time minus the capacity.
 *
 * <p>Clock steps backwards: a debt larger than the capacity can only come from a step back; it is clamped to
 * "full at now" (and written back on a rejection), so the meter never waits for the old time.
 *
 * <p>Stale clock readings: a rejection reads the clock again and decides again if it moved, so a check that read
 * the clock, waited and found a TAT set at a later time by others does not take it for a step back and pull the
 * TAT back to its old reading (which handed the missed leak out twice); only a reading that still stands clamps
 * (found by {@code LeakyBucketModelTest}, Lincheck).
 *
 * <p>Eviction: as for the token bucket, {@link #retire} marks slot 1 of a bucket without debt under the
 * conversion protocol ({@link UnitScale#retire}); a check on a retired bucket rejects without reviving it, and the
 * keyed store looks the key up again, so no permit is taken on a dropped bucket.
 *
 * <p>Reconfigure: the debt carries over in permits (clamped to the new capacity) and leaks at the new rate.
 */
public final class LeakyBucketStrategy implements RateLimitStrategy {

    public static final String NAME = "leaky-bucket";
    public static final LeakyBucketStrategy INSTANCE = new LeakyBucketStrategy();

    public LeakyBucketStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        return new Bucket(config.clock().millis() * config.unitsPerMilli(), UnitScale.initial(config));
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        return check(bucket, config, 1, out);
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long permits, long[] out) {
        return Gcra.check(bucket, config, permits, out, false);
    }

    /**
     * Takes the permits now or from the future: the arrival time may run past the tolerance by at most what
     * accrues within {@code maxWaitNanos}, and the wait is the time until the call conforms. One CAS, like
     * {@link #check}; a TAT further ahead than {@link #MAX_WAIT_NANOS} past the tolerance (a clock step back) is
     * read, and on a rejection written back, as exactly that far ahead.
     */
    @Override
    public long reserve(Bucket bucket, LimitConfig config, long permits, long maxWaitNanos, long[] out) {
        return Gcra.reserve(bucket, config, permits, maxWaitNanos, out, false);
    }

    @Override
    public boolean reserves() {
        return true;
    }

    /** Moves the theoretical arrival time back by the permits' intervals; see {@code UnitScale.refund}. */
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
        long interval = config.unitsPerPermit();
        long tolerance = config.capacityUnits();
        long debt = debt(bucket, config, now);
        long remaining = UnitScale.permits(tolerance - debt, interval);
        long reset = now + UnitScale.millisFor(debt, perMilli);
        if (remaining == 0) {
            Outcome.reject(out, 0, reset, UnitScale.millisFor(debt + interval - tolerance, perMilli),
                    config.limit());
        } else {
            Outcome.allow(out, remaining, reset, config.limit());
        }
        return remaining;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return debt(bucket, config, config.clock().millis()) == 0;
    }

    /** Units of debt at {@code now}, read-only; converts a bucket still in an older scale on the fly. */
    private static long debt(Bucket bucket, LimitConfig config, long now) {
        long scale;
        long tat;
        do { // a consistent (scale, value) pair: the same seqlock-style double read as check
            scale = UnitScale.stableScale(bucket);
            tat = bucket.slot0();
        } while (bucket.slot1() != scale);
        if (scale == UnitScale.RETIRED) {
            return 0; // reads as a fresh bucket
        }
        return UnitScale.amount(scale, tat, now, config, false);
    }

    /** Retires an idle bucket by marking slot 1; see {@link UnitScale#retire}. */
    @Override
    public boolean retire(Bucket bucket, LimitConfig config) {
        return UnitScale.retire(bucket, config, false);
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
