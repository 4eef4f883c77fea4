package dev.limiter.core.spi;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * Worked example of the custom-strategy SPI (docs/strategies.md walks through it): an exact sliding log, "at
 * most {@code limit} admissions in any {@code windowMillis} span", kept in a ring pre-allocated per key. The
 * built-in {@code sliding-log} ({@link dev.limiter.core.strategy.SlidingLogStrategy}) grew out of it and adds what
 * a production strategy needs (several permits and refunds, reservations, safe eviction, reconfiguring to a higher
 * limit, clock steps); this one stays small, as the example of how a strategy is written, packaged and loaded.
 *
 * <p>Registered in {@code META-INF/services/dev.limiter.core.RateLimitStrategy}, so rules can say
 * {@code strategy: sliding-log-example} (a name of its own: a built-in name cannot be taken). It shows the three
 * things a custom strategy must get right:
 * <ol>
 *   <li>state pre-allocated in {@link #newBucket} (a {@link Bucket} subclass with a {@code long[]} ring of
 *       {@code limit} timestamps: 8 bytes per permit, so only for small limits);</li>
 *   <li>lock-free, allocation-free {@link #check}: the n-th admission writes its time into slot
 *       {@code n % limit}; admission n is possible only if admission {@code n - limit}, the entry it replaces, is
 *       older than the window. Each entry is tagged with the lap it belongs to, so exactly one thread wins slot n
 *       by a CAS on the ring entry; slot 0 of the bucket (the sequence number) is then advanced by the winner or
 *       by any thread that finds the entry already claimed (helping, so nobody waits);</li>
 *   <li>a clock stepping backwards: an entry "in the future" counts as inside the window; it can delay, never
 *       over-admit, and expires one window after the clock passes it again.</li>
 * </ol>
 * Reconfigure: the ring size is fixed when the bucket is created; a new window applies at once, a new limit
 * applies to keys created afterwards (the example keeps it simple).
 */
public final class SlidingLogStrategy implements RateLimitStrategy {

    public static final String NAME = "sliding-log-example";

    private static final VarHandle RING = MethodHandles.arrayElementVarHandle(long[].class);
    private static final int TIME_BITS = 44;
    private static final long TIME_MASK = (1L << TIME_BITS) - 1;

    /** The per-key state: slot 0 = admissions so far; the ring = tagged admission times. */
    static final class RingBucket extends Bucket {
        final long[] ring;

        RingBucket(int size) {
            this.ring = new long[size];
        }
    }

    /** Public no-arg constructor, as {@link java.util.ServiceLoader} requires. */
    public SlidingLogStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void validate(LimitConfig config) {
        if (config.limit() > 100_000) {
            throw new IllegalArgumentException("sliding-log keeps one timestamp per permit: limit <= 100000");
        }
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        return new RingBucket((int) config.limit());
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        long[] ring = ((RingBucket) bucket).ring;
        int size = ring.length;
        long now = config.clock().millis();
        long window = config.windowMillis();
        for (;;) {
            long seq = bucket.slot0();
            int index = (int) (seq % size);
            long tag = seq / size + 1; // entries written in lap k carry tag k + 1; a fresh ring is all lap "-1"
            long entry = (long) RING.getVolatile(ring, index);
            if ((entry >>> TIME_BITS) == (tag & 0xFFFFF)) {
                bucket.casSlot0(seq, seq + 1); // already claimed for this seq: help advance, then retry
                continue;
            }
            if ((entry >>> TIME_BITS) != ((tag - 1) & 0xFFFFF)) {
                continue; // a later lap's entry: seq was read before other threads moved on, read it again
            }
            long replaced = entry & TIME_MASK; // the admission `size` places back (0 if none yet)
            if (entry != 0 && replaced + window > now) {
                return Outcome.reject(out, 0, newest(ring, seq, size) + window, replaced + window - now, size);
            }
            if (RING.compareAndSet(ring, index, entry, ((tag & 0xFFFFF) << TIME_BITS) | (now & TIME_MASK))) {
                bucket.casSlot0(seq, seq + 1);
                return Outcome.allow(out, size - inWindow(ring, now, window), now + window, size);
            }
        }
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        long[] ring = ((RingBucket) bucket).ring;
        long now = config.clock().millis();
        long remaining = ring.length - inWindow(ring, now, config.windowMillis());
        long reset = newest(ring, bucket.slot0(), ring.length) + config.windowMillis();
        if (remaining == 0) {
            Outcome.reject(out, 0, reset, oldest(ring) + config.windowMillis() - now, ring.length);
        } else {
            Outcome.allow(out, remaining, reset, ring.length);
        }
        return remaining;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        long[] ring = ((RingBucket) bucket).ring;
        return inWindow(ring, config.clock().millis(), config.windowMillis()) == 0;
    }

    private static int inWindow(long[] ring, long now, long window) {
        int n = 0;
        for (int i = 0; i < ring.length; i++) {
            long entry = (long) RING.getVolatile(ring, i);
            if (entry != 0 && (entry & TIME_MASK) + window > now) {
                n++;
            }
        }
        return n;
    }

    private static long newest(long[] ring, long seq, int size) {
        long entry = (long) RING.getVolatile(ring, (int) ((seq + size - 1) % size));
        return entry & TIME_MASK;
    }

    private static long oldest(long[] ring) {
        long min = Long.MAX_VALUE;
        for (int i = 0; i < ring.length; i++) {
            long entry = (long) RING.getVolatile(ring, i);
            if (entry != 0) {
                min = Math.min(min, entry & TIME_MASK);
            }
        }
        return min == Long.MAX_VALUE ? 0 : min;
    }
}
