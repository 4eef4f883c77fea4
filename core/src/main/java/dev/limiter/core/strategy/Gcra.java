package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;

/**
 * The one admission loop of the token bucket and the GCRA meter (leaky bucket): both {@code check} and
 * {@code reserve} of both run it.
 *
 * <p>The two are the same meter with slot 0 stored differently. A token bucket's base {@code B} is the GCRA
 * theoretical arrival time minus the capacity: {@code fill = now - B = capacity - (B + capacity - now)}, that is
 * capacity minus debt. So the loop reads slot 0 as an arrival time {@code TAT = slot0 + offset} (offset = the
 * capacity for a token base, 0 for a GCRA arrival time) and subtracts the offset again on every write. Each
 * strategy keeps its own slot 0, so {@link UnitScale}'s conversion, retirement and refund are unchanged.
 *
 * <pre>
 *   debt(now) = TAT - now, clamped to [0, capacity + ceiling]   (a larger debt only comes from a clock step back)
 *   wait      = debt + cost - capacity                           (units until the call conforms; &lt;= 0: it does now)
 *   admit if wait &lt;= reach;  then TAT' = now + debt + cost       (one CAS)
 * </pre>
 * A {@code check} is the case {@code reach = ceiling = 0}: nothing is taken from the future and a debt above the
 * capacity reads as exactly full.
 *
 * <p>Stale clock readings: a rejection reads the clock again and decides again if it moved; only a reading that
 * still stands writes the clamped value back (so a check that read the clock, waited and found an arrival time set
 * by others at a later time does not take it for a step back and hand the missed refill out twice; found by
 * {@code TokenBucketModelTest} and {@code LeakyBucketModelTest}, Lincheck).
 */
final class Gcra {

    private Gcra() {
    }

    /**
     * Takes {@code permits} if they conform now or within {@code reach} units, reading a debt beyond
     * {@code capacity + ceiling} as exactly that. Lock-free, no allocation; {@code out} filled as by
     * {@link Outcome}.
     *
     * @param tokenBase true: slot 0 is a token-bucket base; false: a GCRA arrival time (as in {@link UnitScale})
     * @return 0 if the permits are here now, the nanoseconds until they accrue, or
     *         {@link RateLimitStrategy#REJECTED} (nothing taken)
     */
    private static long take(Bucket bucket, LimitConfig config, long permits, long reach, long ceiling, long[] out,
            boolean tokenBase) {
        long now = config.clock().millis();
        long perMilli = config.unitsPerMilli();
        long cost = config.unitsPerPermit() * permits;
        long capacity = config.capacityUnits();
        long offset = tokenBase ? capacity : 0;
        long maxDebt = capacity + ceiling;
        long nowUnits = now * perMilli;
        int tag = config.scaleTag();
        for (;;) {
            long state = bucket.slot1();
            if (UnitScale.tag(state) != tag) { // another scale, CONVERTING (tag -1) or RETIRED (tag -2)
                if (state == UnitScale.RETIRED) { // never revived: the caller looks the key up again
                    return rejected(out, now, 0, 0, perMilli, config);
                }
                UnitScale.convert(bucket, config, now, tokenBase);
                continue;
            }
            long value = bucket.slot0();
            if (bucket.slot1() != state) {
                continue;
            }
            long debt = value + offset - nowUnits;
            long effective = value;
            if (debt < 0) {
                debt = 0;
                effective = nowUnits - offset;
            } else if (debt > maxDebt) {
                debt = maxDebt;
                effective = nowUnits + maxDebt - offset;
            }
            long next = debt + cost;
            long wait = next - capacity;
            if (wait <= reach) {
                if (bucket.casSlot0(value, effective + cost)) {
                    return admitted(out, now, next, wait, perMilli, config);
                }
            } else {
                long fresh = config.clock().millis();
                if (fresh != now) { // refill (leak) may have come since the clock was read: decide again
                    now = fresh;
                    nowUnits = now * perMilli;
                    continue;
                }
                if (effective == value || bucket.casSlot0(value, effective)) {
                    return rejected(out, now, debt, wait - reach, perMilli, config);
                }
            }
        }
    }

    /*
     * The outcomes are methods of their own to keep take() small enough for the JIT to inline it into the
     * strategies' check and reserve (HotSpot inlines a hot callee of up to 325 bytecodes by default), where
     * tokenBase and, for a check, reach and ceiling are constants.
     */

    /** Fills {@code out} for taken permits: the rest now, full after {@code next}; the nanoseconds to wait. */
    private static long admitted(long[] out, long now, long next, long wait, long perMilli, LimitConfig config) {
        Outcome.allow(out, wait < 0 ? UnitScale.permits(-wait, config.unitsPerPermit()) : 0,
                now + UnitScale.millisFor(next, perMilli), config.limit());
        return wait <= 0 ? 0 : UnitScale.nanosFor(wait, perMilli);
    }

    /** Fills {@code out} for a rejection: full after {@code debt}, retry after {@code over} more units accrue. */
    private static long rejected(long[] out, long now, long debt, long over, long perMilli, LimitConfig config) {
        Outcome.reject(out, 0, now + UnitScale.millisFor(debt, perMilli), UnitScale.millisFor(over, perMilli),
                config.limit());
        return RateLimitStrategy.REJECTED;
    }

    /** A check: takes {@code permits} if they are here now; see {@link #take}. */
    static boolean check(Bucket bucket, LimitConfig config, long permits, long[] out, boolean tokenBase) {
        return take(bucket, config, permits, 0, 0, out, tokenBase) == 0;
    }

    /**
     * A reservation: the reach is what accrues within {@code maxWaitNanos}; a debt is read up to at least that
     * far past the capacity, and never less than {@link RateLimitStrategy#MAX_WAIT_NANOS} past it, so reservations
     * made under a longer max-wait (before a reload) are not cut back.
     */
    static long reserve(Bucket bucket, LimitConfig config, long permits, long maxWaitNanos, long[] out,
            boolean tokenBase) {
        long perMilli = config.unitsPerMilli();
        long reach = UnitScale.unitsWithin(maxWaitNanos, perMilli);
        long ceiling = Math.max(reach, UnitScale.unitsWithin(RateLimitStrategy.MAX_WAIT_NANOS, perMilli));
        return take(bucket, config, permits, reach, ceiling, out, tokenBase);
    }
}
