package dev.limiter.agent.method;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import java.util.Arrays;

/**
 * Per-thread buffers for the checks of woven methods: the outcome array, and the stack of concurrency permits
 * the thread holds until the woven methods that took them exit.
 *
 * <p>A woven method that takes permits pushes them and returns a {@link Mark} of the stack height before its
 * push; its exit releases down to that height. Nested woven methods on one thread therefore each give back
 * exactly their own permits, normally or by exception. Marks are created once per height and reused, so a
 * steady state allocates nothing. Only its own thread touches an instance. The permit arrays are created on
 * the first permit held, so a thread that never calls a {@code concurrency}-limited method (typically a
 * short-lived virtual thread) pays only for this object and its outcome array.
 */
final class MethodScratch {

    private static final KeyedLimiter[] NO_LIMITERS = new KeyedLimiter[0];
    private static final String[] NO_KEYS = new String[0];
    private static final Mark[] NO_MARKS = new Mark[0];

    final long[] out = Outcome.newArray();
    private KeyedLimiter[] limiters = NO_LIMITERS;
    private String[] keys = NO_KEYS;
    private Mark[] marks = NO_MARKS;
    int held;

    void hold(KeyedLimiter limiter, String key) {
        if (held == limiters.length) {
            if (held == 0) {
                limiters = new KeyedLimiter[4];
                keys = new String[4];
            } else {
                limiters = Arrays.copyOf(limiters, held * 2);
                keys = Arrays.copyOf(keys, held * 2);
            }
        }
        limiters[held] = limiter;
        keys[held] = key;
        held++;
    }

    /** The token for a method whose permits sit above {@code height}. */
    Mark mark(int height) {
        if (height >= marks.length) {
            marks = Arrays.copyOf(marks, Math.max(height + 4, marks.length * 2));
        }
        Mark mark = marks[height];
        if (mark == null) {
            mark = new Mark(this, height);
            marks[height] = mark;
        }
        return mark;
    }

    /** Gives back every permit above {@code height}, newest first; never throws. */
    void releaseTo(int height) {
        while (held > height) {
            held--;
            try {
                limiters[held].release(keys[held]);
            } catch (Throwable ignored) {
                // a failing release must not stop the others; the limiter counts its own errors
            }
            limiters[held] = null;
            keys[held] = null;
        }
    }

    /** The token a woven method's exit hands back: whose stack, and down to which height to release. */
    static final class Mark {

        final MethodScratch owner;
        final int height;

        Mark(MethodScratch owner, int height) {
            this.owner = owner;
            this.height = height;
        }
    }
}
