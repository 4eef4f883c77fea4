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

    /** Slot 1 while a conversion is in progress (real scales are positive). */
    static final long CONVERTING = -1L;

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
            if (tag(state) == target) {
                return;
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
     * {@code units / cost}, skipping the 64-bit division (20-90 cycles) in the common case where the reduced
     * ratio has a 1 on one side (100/s, 10/min, 10M/s all do): the branch is perfectly predicted per rule.
     */
    static long permits(long units, long cost) {
        return cost == 1 ? units : units / cost;
    }
}
