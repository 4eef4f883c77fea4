package dev.limiter.core;

import java.util.Iterator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/**
 * Keys told to pause until a time (a server that answered {@code 429} or {@code 503} with {@code Retry-After}):
 * each key maps to the {@link System#nanoTime()} its pause ends. The check is one map look-up, allocation-free; a
 * pause that has ended is removed by the next check of its key. A later end never shortens a pause in force.
 *
 * <p>Bounded: at most {@link #MAX_KEYS} keys are paused at once; beyond that, ended pauses are swept and, if none
 * has ended, the new pause is refused (counted in {@link #refused()}) rather than letting a flood of keys grow the
 * map.
 */
public final class KeyPauses {

    /** The most keys paused at once. */
    public static final int MAX_KEYS = 10_000;

    private final ConcurrentHashMap<String, Long> until = new ConcurrentHashMap<>();
    private final LongAdder refused = new LongAdder();

    /**
     * Pauses {@code key} until {@code endNanos} (a {@link System#nanoTime()} value), unless it is paused longer
     * already; returns false if the board is full of pauses in force.
     */
    public boolean pause(String key, long endNanos, long nowNanos) {
        if (until.size() >= MAX_KEYS && !until.containsKey(key)) {
            sweep(nowNanos);
            if (until.size() >= MAX_KEYS) {
                refused.increment();
                return false;
            }
        }
        until.merge(key, endNanos, KeyPauses::later);
        return true;
    }

    private static Long later(Long a, Long b) {
        return a - b >= 0 ? a : b;
    }

    /** Nanoseconds left of {@code key}'s pause at {@code nowNanos}, 0 if it is not paused. */
    public long nanosLeft(String key, long nowNanos) {
        if (until.isEmpty()) {
            return 0;
        }
        Long end = until.get(key);
        if (end == null) {
            return 0;
        }
        long left = end - nowNanos;
        if (left <= 0) {
            until.remove(key, end);
            return 0;
        }
        return left;
    }

    /** How many keys are paused (ended pauses not yet swept included). */
    public int size() {
        return until.size();
    }

    /** Pauses refused because {@link #MAX_KEYS} keys were paused already. */
    public long refused() {
        return refused.sum();
    }

    /** Drops every pause (tests, and a rule whose file no longer honours {@code Retry-After}). */
    public void clear() {
        until.clear();
    }

    private void sweep(long nowNanos) {
        for (Iterator<Map.Entry<String, Long>> it = until.entrySet().iterator(); it.hasNext();) {
            if (it.next().getValue() - nowNanos <= 0) {
                it.remove();
            }
        }
    }
}
