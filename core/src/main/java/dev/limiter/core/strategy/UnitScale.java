package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.ScaleTags;

/**
 * The fixed-point scale shared by the token bucket and the GCRA meter, and its conversion on reconfigure.
 *
 * <p>Both keep one time-like value in slot 0 measured in units where one millisecond is
 * {@link LimitConfig#unitsPerMilli()} units and one permit costs {@link LimitConfig#unitsPerPermit()} units. The
 * value is {@code now * unitsPerMilli} computed modulo 2^64: only differences with "now" are ever used, so the
 * wrap-around is harmless as long as a difference stays below 2^63 units (a key idle for less than
 * {@code 2^63 / unitsPerMilli} ms: 29 years at 10 million per second).
 *
 * <p>Slot 1 holds {@code generation << 32 | tag}: the {@link LimitConfig#scaleTag()} of the scale slot 0 is
 * written in, and how many conversions the bucket has seen. When a rule's limit or window changes, the first
 * check under the new config converts slot 0 (keeping the permits, or the debt, it represents, as a fraction of
 * the capacity in permits). The conversion is the one place that is not a single CAS: the converting thread
 * CASes slot 1 to {@link #CONVERTING}, converts slot 0 by CAS, then publishes the new tag with the next
 * generation; other threads on that key spin for those few instructions. Readers validate slot 1 before and
 * after reading slot 0 (a tiny seqlock); the generation makes every conversion visible to that recheck, so a
 * back-and-forth A -> B -> A cannot pass it with a slot 0 read in B (the ABA the scale alone allowed).
 */
final class UnitScale {

    /** Slot 1 while a conversion (or a {@link #retire}) is in progress (real scales are positive). */
    static final long CONVERTING = -1L;

    /**
     * Slot 1 of a retired bucket. Real slot-1 values are non-negative (a 31-bit generation over a tag, and tags
     * are array indices); its tag, -2, is no config's, so a check's one tag compare already sends it off the
     * fast path, where it is rejected and never converted back to life.
     */
    static final long RETIRED = -2L;

    private static final long LOW_32 = 0xFFFF_FFFFL;

    private UnitScale() {
    }

    /**
     * Converts slot 0 to {@code config}'s scale if it is in another one. {@code tokenBase} selects the meaning
     * of slot 0: true = token-bucket time base B (fill = now - B), false = GCRA theoretical arrival time
     * (debt = TAT - now).
     */
    static void convert(Bucket bucket, LimitConfig config, long now, boolean tokenBase) {
        int target = config.scaleTag();
        for (;;) {
            long state = bucket.slot1();
            if (state == CONVERTING) {
                Thread.onSpinWait();
                continue;
            }
            if (tag(state) == target || state == RETIRED) {
                return; // a retired bucket stays retired: the caller sees the marker and rejects
            }
            if (!bucket.casSlot1(state, CONVERTING)) {
                continue;
            }
            long scale = ScaleTags.scaleOf(tag(state));
            long oldPerMilli = scale >>> 32;
            long oldCost = scale & LOW_32;
            long oldNow = now * oldPerMilli;
            long newNow = now * config.unitsPerMilli();
            long oldMax = config.capacity() * oldCost; // < 2^63: capacity < 2^31, cost < 2^32
            for (;;) {
                long value = bucket.slot0();
                long oldUnits = tokenBase ? oldNow - value : value - oldNow;
                long newUnits = rescale(clamp(oldUnits, oldMax), oldCost, config.unitsPerPermit(),
                        config.capacityUnits());
                long converted = tokenBase ? newNow - newUnits : newNow + newUnits;
                if (bucket.casSlot0(value, converted)) {
                    break;
                }
            }
            bucket.setSlot1(next(state, target));
            return;
        }
    }

    /**
     * Retires an idle bucket: slot 1 goes to {@link #RETIRED}. Slot 0 holds a time-like value that can take any
     * bit pattern, so the marker lives in slot 1; but checks CAS slot 0, after validating slot 1, so marking slot 1
     * alone would not stop a check that validated it just before. Retiring is therefore done like a conversion:
     * slot 1 to {@link #CONVERTING} (checks now wait), then slot 0 CASed from the idle value it was judged by to
     * another one, which fails every CAS of a check that read it earlier; if that CAS fails, a check took a permit
     * first, and slot 1 is restored (the scale is unchanged, so seqlock readers are not misled) and the bucket
     * judged again. {@code tokenBase} as for {@link #convert}.
     *
     * @return true if the bucket is retired (now or before), false (nothing changed) if it is not idle
     */
    static boolean retire(Bucket bucket, LimitConfig config, boolean tokenBase) {
        for (;;) {
            long state = bucket.slot1();
            if (state == RETIRED) {
                return true; // idempotent, also when another thread retired it first
            }
            if (state == CONVERTING) {
                Thread.onSpinWait();
                continue;
            }
            long value = bucket.slot0();
            if (bucket.slot1() != state) {
                continue;
            }
            // the clock is read after the state: a reading older than the state could take live state for idle
            long units = amount(state, value, config.clock().millis(), config, tokenBase);
            if (tokenBase ? units < config.capacityUnits() : units != 0) {
                return false;
            }
            if (!bucket.casSlot1(state, CONVERTING)) {
                continue;
            }
            if (bucket.casSlot0(value, value + 1)) {
                bucket.setSlot1(RETIRED);
                return true;
            }
            bucket.setSlot1(state);
        }
    }

    /**
     * Gives back {@code units} taken by a check: the token base B, or the GCRA arrival time, moves back by them
     * (both mean "{@code units} more available"). Only while the bucket is still in {@code config}'s scale: a
     * bucket converted or retired since the check keeps them (a refund never adds to another scale's value).
     * Validates slot 1 around the slot-0 CAS, as a check does.
     */
    static void refund(Bucket bucket, LimitConfig config, long units) {
        int target = config.scaleTag();
        for (;;) {
            long state = stableScale(bucket);
            if (tag(state) != target) {
                return; // reconfigured (converted) or retired since the permits were taken
            }
            long value = bucket.slot0();
            if (bucket.slot1() != state) {
                continue;
            }
            if (bucket.casSlot0(value, value - units)) {
                return;
            }
        }
    }

    /**
     * Token-bucket fill or GCRA debt at {@code now} in {@code config}'s units, from a consistent (slot 1, slot 0)
     * pair; a bucket still in an older scale is converted on the fly, read-only.
     */
    static long amount(long scale, long value, long now, LimitConfig config, boolean tokenBase) {
        if (tag(scale) == config.scaleTag()) {
            long nowUnits = now * config.unitsPerMilli();
            return clamp(tokenBase ? nowUnits - value : value - nowUnits, config.capacityUnits());
        }
        scale = scaleOf(scale);
        long oldCost = scale & LOW_32;
        long oldNow = now * (scale >>> 32);
        long oldUnits = clamp(tokenBase ? oldNow - value : value - oldNow, config.capacity() * oldCost);
        return rescale(oldUnits, oldCost, config.unitsPerPermit(), config.capacityUnits());
    }

    /** Slot 1 of a new bucket written in {@code config}'s scale. */
    static long initial(LimitConfig config) {
        return config.scaleTag();
    }

    /** The scale tag recorded in a slot-1 value. */
    static int tag(long state) {
        return (int) (state & LOW_32);
    }

    /** The slot-1 value after converting {@code state} to {@code tag}: the next generation (31 bits, wraps). */
    private static long next(long state, int tag) {
        long generation = ((state >>> 32) + 1) & 0x7FFF_FFFFL;
        return generation << 32 | tag;
    }

    /** The (perMilli, cost) scale of a slot-1 value. */
    static long scaleOf(long state) {
        return ScaleTags.scaleOf(tag(state));
    }

    /** Slot 1, waiting out a conversion in progress (a few instructions, once per key per reconfigure). */
    static long stableScale(Bucket bucket) {
        long state = bucket.slot1();
        while (state == CONVERTING) {
            Thread.onSpinWait();
            state = bucket.slot1();
        }
        return state;
    }

    /** {@code units} clamped to {@code [0, max]}. */
    static long clamp(long units, long max) {
        return units < 0 ? 0 : Math.min(units, max);
    }

    /** {@code units * newCost / oldCost} without overflow, capped at {@code max}. */
    static long rescale(long units, long oldCost, long newCost, long max) {
        long permits = units / oldCost;
        long fraction = units % oldCost;
        if (permits >= max / newCost) {
            return max;
        }
        long scaled = permits * newCost + (long) ((double) fraction * newCost / oldCost);
        return Math.min(scaled, max);
    }

    /** {@code ceil(units / perMilli)} for non-negative units: milliseconds until {@code units} accrue. */
    static long millisFor(long units, long perMilli) {
        return perMilli == 1 ? units : (units + perMilli - 1) / perMilli;
    }

    /**
     * {@code ceil(units * 1,000,000 / perMilli)} for non-negative units: nanoseconds until {@code units} accrue,
     * exact (10,000 per second is 0.1 ms a permit, never 0). Split so it cannot overflow for {@code units} up to
     * a minute's worth.
     */
    static long nanosFor(long units, long perMilli) {
        long whole = units / perMilli;
        long part = units % perMilli * 1_000_000L;
        return whole * 1_000_000L + (part + perMilli - 1) / perMilli;
    }

    /** {@code floor(nanos * perMilli / 1,000,000)}: the units that accrue within {@code nanos} (a minute at most). */
    static long unitsWithin(long nanos, long perMilli) {
        return nanos / 1_000_000L * perMilli + nanos % 1_000_000L * perMilli / 1_000_000L;
    }

    /**
     * {@code units / cost}, skipping the 64-bit division (20-90 cycles) in the common case where the reduced
     * ratio has a 1 on one side (100/s, 10/min, 10M/s all do): the branch is perfectly predicted per rule.
     */
    static long permits(long units, long cost) {
        return cost == 1 ? units : units / cost;
    }
}
