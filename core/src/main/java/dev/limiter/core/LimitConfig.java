package dev.limiter.core;

import dev.limiter.core.clock.Clock;
import dev.limiter.core.clock.CoarseClock;

/**
 * The immutable limits of one rule: {@code limit} permits per {@code windowMillis}, a burst {@code capacity}
 * and the {@link Clock} that time is read from.
 *
 * <p>Why the ranges are validated here: every strategy packs its state into 64-bit words and must never
 * overflow. The rate strategies (token bucket, GCRA) keep time in exact fixed-point "units" where one
 * millisecond adds {@link #unitsPerMilli()} units and one permit costs {@link #unitsPerPermit()} units (the
 * ratio {@code limit / windowMillis} reduced by its greatest common divisor, so 10 per minute is exactly 10
 * per minute, not a rounded refill per millisecond). Keeping {@code limit < 2^31}, {@code windowMillis < 2^32}
 * and {@code capacity * unitsPerPermit < 2^62} makes every product in those strategies fit in a {@code long}.
 *
 * <p>Instances are created on configuration paths only; the request path just reads the precomputed fields.
 */
public final class LimitConfig {

    /** Largest accepted limit (and capacity): counts fit in 31 bits. */
    public static final long MAX_LIMIT = Integer.MAX_VALUE;

    /** Longest accepted window: 2^32 - 1 ms, about 49.7 days. */
    public static final long MAX_WINDOW_MILLIS = 0xFFFF_FFFFL;

    /** Upper bound of {@code capacity * unitsPerPermit}, so a full bucket plus one permit fits in a long. */
    static final long MAX_CAPACITY_UNITS = 1L << 62;

    private final long limit;
    private final long windowMillis;
    private final long capacity;
    private final Clock clock;
    private final long unitsPerMilli;
    private final long unitsPerPermit;
    private final long capacityUnits;
    private final int scaleTag;

    private LimitConfig(long limit, long windowMillis, long capacity, Clock clock) {
        if (limit < 1 || limit > MAX_LIMIT) {
            throw new IllegalArgumentException("limit must be in [1, " + MAX_LIMIT + "]: " + limit);
        }
        if (windowMillis < 1 || windowMillis > MAX_WINDOW_MILLIS) {
            throw new IllegalArgumentException(
                    "window must be in [1 ms, " + MAX_WINDOW_MILLIS + " ms (~49 days)]: " + windowMillis + " ms");
        }
        if (capacity < 1 || capacity > MAX_LIMIT) {
            throw new IllegalArgumentException("capacity must be in [1, " + MAX_LIMIT + "]: " + capacity);
        }
        long gcd = gcd(limit, windowMillis);
        this.limit = limit;
        this.windowMillis = windowMillis;
        this.capacity = capacity;
        this.clock = clock;
        this.unitsPerMilli = limit / gcd;
        this.unitsPerPermit = windowMillis / gcd;
        if (capacity > MAX_CAPACITY_UNITS / unitsPerPermit) {
            throw new IllegalArgumentException("capacity " + capacity + " is too large for a window of "
                    + windowMillis + " ms and a limit of " + limit);
        }
        this.capacityUnits = capacity * unitsPerPermit;
        this.scaleTag = ScaleTags.tagOf(unitScale());
    }

    /**
     * {@code limit} permits per {@code windowMillis}; the burst capacity defaults to {@code limit} and the clock
     * to the shared {@link CoarseClock}.
     *
     * @throws IllegalArgumentException if a value is out of range
     */
    public static LimitConfig of(long limit, long windowMillis) {
        return new LimitConfig(limit, windowMillis, limit, null);
    }

    /** The same limits with another burst capacity (token bucket, leaky bucket tolerance). */
    public LimitConfig withCapacity(long capacity) {
        return new LimitConfig(limit, windowMillis, capacity, clock);
    }

    /** The same limits read from another clock (tests use a {@code ManualClock}). */
    public LimitConfig withClock(Clock clock) {
        if (clock == null) {
            throw new IllegalArgumentException("clock must not be null");
        }
        return new LimitConfig(limit, windowMillis, capacity, clock);
    }

    /** The same limits with another limit and window (same capacity policy: capacity follows the limit). */
    public LimitConfig withLimit(long limit, long windowMillis) {
        long newCapacity = capacity == this.limit ? limit : capacity;
        return new LimitConfig(limit, windowMillis, newCapacity, clock);
    }

    /** Permits per window (concurrency: permits in flight). */
    public long limit() {
        return limit;
    }

    public long windowMillis() {
        return windowMillis;
    }

    /** Burst size: the most permits a full bucket holds. Defaults to {@link #limit()}. */
    public long capacity() {
        return capacity;
    }

    /** The clock; the shared {@link CoarseClock} unless one was set. */
    public Clock clock() {
        Clock c = clock;
        return c != null ? c : CoarseClock.shared();
    }

    /** Fixed-point units one millisecond of refill adds: {@code limit / gcd(limit, windowMillis)}. */
    public long unitsPerMilli() {
        return unitsPerMilli;
    }

    /** Fixed-point units one permit costs: {@code windowMillis / gcd(limit, windowMillis)}. */
    public long unitsPerPermit() {
        return unitsPerPermit;
    }

    /** {@code capacity * unitsPerPermit}: the units a full bucket holds. */
    public long capacityUnits() {
        return capacityUnits;
    }

    /**
     * Identifies the fixed-point scale ({@code unitsPerMilli}, {@code unitsPerPermit}) in one positive long, so a
     * bucket can remember the scale its state was written in and convert it when the rule is reconfigured.
     */
    public long unitScale() {
        return (unitsPerMilli << 32) | unitsPerPermit;
    }

    /** A small tag for {@link #unitScale()} (see {@link ScaleTags}): what a bucket's slot 1 records. */
    public int scaleTag() {
        return scaleTag;
    }

    /** True if both configs describe the same limits (the clock is not compared). */
    public boolean sameLimits(LimitConfig other) {
        return other != null && limit == other.limit && windowMillis == other.windowMillis
                && capacity == other.capacity;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof LimitConfig other && sameLimits(other) && clock == other.clock;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(limit) * 31 * 31 + Long.hashCode(windowMillis) * 31 + Long.hashCode(capacity);
    }

    @Override
    public String toString() {
        return "LimitConfig[limit=" + limit + ", windowMillis=" + windowMillis + ", capacity=" + capacity + "]";
    }

    private static long gcd(long a, long b) {
        while (b != 0) {
            long t = a % b;
            a = b;
            b = t;
        }
        return a;
    }
}
