package dev.limiter.redis;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What this JVM knows locally about one hot key when batching is on ({@link RedisSettings#batch()} > 1): either
 * permits it reserved from Redis and hands out itself, or a rejection that holds until its retry-after.
 *
 * <p>Why it never over-admits: the permits were taken from the shared budget by the script before any of them is
 * handed out, so across all JVMs no more than the limit is ever admitted; and a remembered rejection only rejects
 * requests Redis would have rejected too (nothing frees a permit before the retry-after it reported, except a
 * reset). The cost is the other way: permits a JVM reserved but did not use before the slice expires are lost for
 * everyone, so the fleet may admit up to {@code (batch - 1)} per JVM per key fewer than the limit in a window, and a
 * JVM may be rejected by Redis while another still holds reserved permits. The {@code batch - 1} holds because a
 * JVM asks Redis only once its slice is used up; threads of one JVM that find it empty at the same moment each
 * reserve, so in the worst case a slice holds {@code (batch - 1)} per such thread. A fixed-window slice expires at its
 * window's end (measured with the server's clock in the reply, so JVM clock skew plays no part); a bucket slice
 * after one window, bounding the extra burst a JVM can add on top of a refilled bucket to {@code batch - 1}.
 *
 * <p>Request path: one CAS on {@link #permits}; nothing is allocated until the slice is used up.
 */
final class LocalSlice {

    private final AtomicLong permits;
    private final long expiresAtNanos;
    private final long resetEpochMillis;
    private final boolean rejecting;

    private LocalSlice(long permits, long expiresAtNanos, long resetEpochMillis, boolean rejecting) {
        this.permits = new AtomicLong(permits);
        this.expiresAtNanos = expiresAtNanos;
        this.resetEpochMillis = resetEpochMillis;
        this.rejecting = rejecting;
    }

    /** {@code permits} reserved permits, usable until {@code expiresAtNanos} ({@link System#nanoTime()}). */
    static LocalSlice reserved(long permits, long expiresAtNanos, long resetEpochMillis) {
        return new LocalSlice(permits, expiresAtNanos, resetEpochMillis, false);
    }

    /** A rejection by Redis, repeated locally until {@code untilNanos}. */
    static LocalSlice rejected(long untilNanos, long resetEpochMillis) {
        return new LocalSlice(0, untilNanos, resetEpochMillis, true);
    }

    /** Takes one reserved permit; returns the permits left after it, or -1 if none is left or the slice expired. */
    long take(long nowNanos) {
        if (rejecting || nowNanos - expiresAtNanos >= 0) {
            return -1;
        }
        for (;;) {
            long n = permits.get();
            if (n <= 0) {
                return -1;
            }
            if (permits.compareAndSet(n, n - 1)) {
                return n - 1;
            }
        }
    }

    /** Millis the remembered rejection still holds (at least 1), or 0 if this is not a live rejection. */
    long rejectingMillis(long nowNanos) {
        long left = expiresAtNanos - nowNanos;
        if (!rejecting || left <= 0) {
            return 0;
        }
        return Math.max(1, left / 1_000_000);
    }

    /** Adds permits reserved by another round trip of this JVM; false if this slice can no longer take them. */
    boolean add(long more, long nowNanos) {
        if (rejecting || nowNanos - expiresAtNanos >= 0) {
            return false;
        }
        permits.addAndGet(more);
        return true;
    }

    /** True if the slice is of no more use (used up or expired): it may be dropped. */
    boolean isSpent(long nowNanos) {
        return nowNanos - expiresAtNanos >= 0 || (!rejecting && permits.get() <= 0);
    }

    /** The reset (epoch millis) the script reported when the slice was made. */
    long resetEpochMillis() {
        return resetEpochMillis;
    }
}
