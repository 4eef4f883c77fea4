package dev.limiter.core;

/**
 * Layout of the {@code long[] out} array that {@link RateLimitStrategy#check} and {@link KeyedLimiter#tryAcquire}
 * fill, so a decision carries its numbers without allocating a result object.
 *
 * <p>Callers allocate one array per thread (or per call site) with {@link #newArray()} and reuse it.
 */
public final class Outcome {

    /** Permits left in the current window / bucket after this decision (never negative). */
    public static final int REMAINING = 0;

    /** Epoch seconds at which the budget is fully restored (window end, bucket full). */
    public static final int RESET_EPOCH_SECONDS = 1;

    /** For a rejection: milliseconds until a retry can succeed (at least 1). 0 for an allowed request. */
    public static final int RETRY_AFTER_MILLIS = 2;

    /** The configured limit, so headers can be written without looking the rule up again. */
    public static final int LIMIT = 3;

    /**
     * Where the permits of an admitted check were counted, for {@link RateLimitStrategy#refund}: the window index
     * for window strategies, the time the call is recorded at for the sliding log, 0 for the buckets (whose refund
     * needs no position).
     */
    public static final int STAMP = 4;

    /** Length of an out array. */
    public static final int SIZE = 5;

    private Outcome() {
    }

    public static long[] newArray() {
        return new long[SIZE];
    }

    /**
     * Fills {@code out} for an admitted request and returns {@code true}; for strategies, including custom ones.
     *
     * @param resetEpochMillis when the budget is fully restored (rounded up to whole seconds)
     */
    public static boolean allow(long[] out, long remaining, long resetEpochMillis, long limit) {
        out[REMAINING] = remaining < 0 ? 0 : remaining;
        out[RESET_EPOCH_SECONDS] = ceilSeconds(resetEpochMillis);
        out[RETRY_AFTER_MILLIS] = 0;
        out[LIMIT] = limit;
        clearStamp(out);
        return true;
    }

    /**
     * Fills {@code out} for a rejected request and returns {@code false}; {@code retryAfterMillis} is raised to 1.
     */
    public static boolean reject(long[] out, long remaining, long resetEpochMillis, long retryAfterMillis,
            long limit) {
        out[REMAINING] = remaining < 0 ? 0 : remaining;
        out[RESET_EPOCH_SECONDS] = ceilSeconds(resetEpochMillis);
        out[RETRY_AFTER_MILLIS] = retryAfterMillis < 1 ? 1 : retryAfterMillis;
        out[LIMIT] = limit;
        clearStamp(out);
        return false;
    }

    /**
     * Records where an admitted check counted its permits ({@link #STAMP}), for a refund. Arrays sized before the
     * stamp existed (4 slots) simply do not get it: their callers never refund.
     */
    public static void stamp(long[] out, long stamp) {
        if (out.length > STAMP) {
            out[STAMP] = stamp;
        }
    }

    /** No position to refund to; arrays sized before the stamp existed (4 slots) have none to clear. */
    private static void clearStamp(long[] out) {
        if (out.length > STAMP) {
            out[STAMP] = 0;
        }
    }

    /** Epoch millis to epoch seconds, rounded up (a reset is never announced early). */
    public static long ceilSeconds(long epochMillis) {
        return Math.floorDiv(epochMillis + 999, 1000);
    }

    /** Whole seconds to put in {@code Retry-After}: rounded up, at least 1. */
    public static long retryAfterSeconds(long[] out) {
        long millis = out[RETRY_AFTER_MILLIS];
        long seconds = (millis + 999) / 1000;
        return seconds < 1 ? 1 : seconds;
    }
}
