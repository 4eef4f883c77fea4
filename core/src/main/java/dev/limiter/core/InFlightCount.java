package dev.limiter.core;

/**
 * The calls in flight of a bulkhead, in a bucket's slot 0, for every strategy that admits by calls in flight
 * ({@code concurrency}, {@code adaptive}): taken by CAS only below a limit, given back by CAS only above zero (a
 * release without an acquire, or a double release, never drives it negative), and retired by CAS from 0 to a
 * marker, after which nothing is admitted (a check that sees it rejects and looks the key up again, so no permit is
 * taken on a bucket the keyed store drops). Out values: {@code reset} is "now", a rejection's retry-after is the
 * rule's window (a hint of how long calls take).
 */
public final class InFlightCount {

    /** Slot 0 value of a retired bucket. */
    static final long RETIRED = Long.MIN_VALUE;

    private InFlightCount() {
    }

    /**
     * Takes one call below {@code limit}: the calls in flight with it, or 0 if none was taken (at the limit, or
     * retired); {@code out} is filled either way.
     */
    public static long enter(Bucket bucket, long limit, LimitConfig config, long[] out) {
        for (;;) {
            long inFlight = bucket.slot0();
            if (inFlight < 0 || inFlight >= limit) {
                Outcome.reject(out, 0, config.clock().millis(), config.windowMillis(), limit);
                return 0;
            }
            if (bucket.casSlot0(inFlight, inFlight + 1)) {
                Outcome.allow(out, limit - inFlight - 1, config.clock().millis(), limit);
                return inFlight + 1;
            }
        }
    }

    /** Calls that may still enter below {@code limit}, taking nothing; {@code out} filled as by {@link #enter}. */
    public static long peek(Bucket bucket, long limit, LimitConfig config, long[] out) {
        long remaining = Math.max(0, limit - count(bucket));
        long now = config.clock().millis();
        if (remaining == 0) {
            Outcome.reject(out, 0, now, config.windowMillis(), limit);
        } else {
            Outcome.allow(out, remaining, now, limit);
        }
        return remaining;
    }

    /** Gives one call back; nothing below zero. */
    public static void leave(Bucket bucket) {
        for (;;) {
            long inFlight = bucket.slot0();
            if (inFlight <= 0 || bucket.casSlot0(inFlight, inFlight - 1)) {
                return;
            }
        }
    }

    /** True if nothing is in flight (or the bucket is retired). */
    public static boolean isIdle(Bucket bucket) {
        return bucket.slot0() <= 0;
    }

    /** Retires the bucket if nothing is in flight; idempotent. */
    public static boolean retire(Bucket bucket) {
        for (;;) {
            long inFlight = bucket.slot0();
            if (inFlight == RETIRED) {
                return true; // also when another thread retired it first
            }
            if (inFlight != 0) {
                return false;
            }
            if (bucket.casSlot0(0, RETIRED)) {
                return true;
            }
        }
    }

    public static boolean isRetired(Bucket bucket) {
        return bucket.slot0() == RETIRED;
    }

    /** Calls in flight (0 for a retired bucket). */
    public static long count(Bucket bucket) {
        long n = bucket.slot0();
        return n < 0 ? 0 : n;
    }
}
