package dev.limiter.agent.decision;

import dev.limiter.core.KeyedLimiter;
import java.util.Arrays;

/**
 * The permits one thread holds until the calls that took them end (strategies that release on exit, such as
 * {@code concurrency}): a stack, so nested calls on one thread each give back exactly their own permits.
 *
 * <p>Only its own thread touches an instance. The arrays are created with the first permit held, so a thread
 * that never calls a limit released on exit (typically a short-lived virtual thread) pays for nothing more.
 */
public final class HeldPermits {

    private static final KeyedLimiter[] NO_LIMITERS = new KeyedLimiter[0];
    private static final String[] NO_KEYS = new String[0];

    private static final long[] NO_STARTS = new long[0];

    private KeyedLimiter[] limiters = NO_LIMITERS;
    private String[] keys = NO_KEYS;
    /** The {@link System#nanoTime} each permit was taken at, for a limiter that learns from latency; else 0. */
    private long[] starts = NO_STARTS;
    private int height;

    /** How many permits are held. */
    public int height() {
        return height;
    }

    /** Pushes one permit of {@code limiter} for {@code key}. */
    public void hold(KeyedLimiter limiter, String key) {
        hold(limiter, key, false);
    }

    /**
     * Pushes one permit of {@code limiter} for {@code key}; with {@code timed} (an {@code adaptive} limit) its
     * release carries how long the call held it.
     */
    public void hold(KeyedLimiter limiter, String key, boolean timed) {
        if (height == limiters.length) {
            int size = height == 0 ? 4 : height * 2;
            limiters = Arrays.copyOf(limiters, size);
            keys = Arrays.copyOf(keys, size);
            starts = Arrays.copyOf(starts, size);
        }
        limiters[height] = limiter;
        keys[height] = key;
        starts[height] = timed ? System.nanoTime() : 0;
        height++;
    }

    /** Gives back every permit above {@code newHeight}, newest first; never throws. */
    public void releaseTo(int newHeight) {
        while (height > newHeight) {
            height--;
            try {
                long start = starts[height];
                if (start == 0) {
                    limiters[height].release(keys[height]);
                } else {
                    long now = System.nanoTime();
                    limiters[height].release(keys[height], now - start, now);
                }
            } catch (Throwable ignored) {
                // a failing release must not stop the others; the limiter counts its own errors
            }
            limiters[height] = null;
            keys[height] = null;
        }
    }

    /** Moves every held permit into a new instance (this one is left empty), for a call that ends elsewhere. */
    public HeldPermits takeAll() {
        HeldPermits taken = new HeldPermits();
        taken.limiters = Arrays.copyOf(limiters, height);
        taken.keys = Arrays.copyOf(keys, height);
        taken.starts = Arrays.copyOf(starts, height);
        taken.height = height;
        Arrays.fill(limiters, 0, height, null);
        Arrays.fill(keys, 0, height, null);
        height = 0;
        return taken;
    }
}
