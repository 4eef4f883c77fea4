package dev.limiter.redis;

import java.util.concurrent.atomic.AtomicLongArray;

/**
 * Round-trip latencies in microseconds, for percentiles in JMX, recorded lock-free and without allocation.
 *
 * <p>Log-linear buckets (as HdrHistogram, without the dependency): values below 64 us are exact, above that each
 * power of two is split into 32 buckets, so a percentile is within about 3 % of the true value. A percentile
 * reports the upper edge of its bucket (never optimistic). Recording is one {@code getAndIncrement} on a shared
 * array: fine here because it follows a network round trip of tens of microseconds.
 */
final class LatencyHistogram {

    private static final int LINEAR = 64;
    private static final int SUB_BITS = 5;
    private static final int SUB = 1 << SUB_BITS;
    private static final int MAX_EXPONENT = 40; // ~12 days in microseconds: anything above is clamped
    private static final int SIZE = LINEAR + (MAX_EXPONENT - 5) * SUB;

    private final AtomicLongArray counts = new AtomicLongArray(SIZE);

    void record(long micros) {
        counts.getAndIncrement(index(micros));
    }

    /** The latency below which {@code quantile} (0..1) of the recorded values lie, in microseconds; 0 if empty. */
    long percentile(double quantile) {
        long total = 0;
        for (int i = 0; i < SIZE; i++) {
            total += counts.get(i);
        }
        if (total == 0) {
            return 0;
        }
        long rank = (long) Math.ceil(quantile * total);
        if (rank < 1) {
            rank = 1;
        }
        long seen = 0;
        for (int i = 0; i < SIZE; i++) {
            seen += counts.get(i);
            if (seen >= rank) {
                return upperEdge(i);
            }
        }
        return upperEdge(SIZE - 1);
    }

    /**
     * Cumulative counts: element {@code i} holds the values below {@code bounds[i]}, which must ascend and each be
     * a bucket's lower edge (below 64, or a power of two), so the counts are exact; the extra last element holds
     * every value. Reads each bucket once.
     */
    long[] cumulativeBelow(long[] bounds) {
        long[] out = new long[bounds.length + 1];
        int bound = 0;
        long seen = 0;
        for (int i = 0; i < SIZE; i++) {
            while (bound < bounds.length && index(bounds[bound]) <= i) {
                out[bound++] = seen;
            }
            seen += counts.get(i);
        }
        while (bound < bounds.length) {
            out[bound++] = seen;
        }
        out[bounds.length] = seen;
        return out;
    }

    long count() {
        long total = 0;
        for (int i = 0; i < SIZE; i++) {
            total += counts.get(i);
        }
        return total;
    }

    void reset() {
        for (int i = 0; i < SIZE; i++) {
            counts.set(i, 0);
        }
    }

    static int index(long micros) {
        if (micros < LINEAR) {
            return micros < 0 ? 0 : (int) micros;
        }
        int exponent = 63 - Long.numberOfLeadingZeros(micros); // >= 6
        if (exponent > MAX_EXPONENT) {
            return SIZE - 1;
        }
        int sub = (int) (micros >>> (exponent - SUB_BITS)) & (SUB - 1);
        return LINEAR + (exponent - 6) * SUB + sub;
    }

    static long upperEdge(int index) {
        if (index < LINEAR) {
            return index;
        }
        int exponent = (index - LINEAR) / SUB + 6;
        int sub = (index - LINEAR) % SUB;
        long base = 1L << exponent;
        long step = 1L << (exponent - SUB_BITS);
        return base + (sub + 1) * step - 1;
    }
}
