package dev.limiter.agent.servlet;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;

/**
 * Per-thread buffers for one request's decision, allocated once per thread and reused, so that checking an
 * allowed request allocates nothing: the matched rules, the outcome of the current check, the outcome that goes
 * into the headers, the last joined request path ({@link JoinedPath}), and the concurrency permits to give back
 * when the request ends.
 *
 * <p>Only its own thread touches it (it hangs off the thread's {@code RequestFrame}); arrays grow on the rare
 * request that matches more rules than any before it on this thread. A virtual thread borrows one from the
 * {@link ScratchPool} for its request instead ({@link #pooled}).
 */
final class RequestScratch {

    /** Made for a virtual thread: goes back to the {@link ScratchPool} when the request ends. */
    boolean pooled;

    Rule[] matched = new Rule[8];
    final long[] out = Outcome.newArray();
    final long[] shown = Outcome.newArray();
    Rule shownRule;
    final HeaderWriter headers = new HeaderWriter();
    final JoinedPath paths = new JoinedPath();

    KeyedLimiter[] heldLimiters = new KeyedLimiter[4];
    String[] heldKeys = new String[4];
    int held;

    void hold(KeyedLimiter limiter, String key) {
        if (held == heldLimiters.length) {
            heldLimiters = java.util.Arrays.copyOf(heldLimiters, held * 2);
            heldKeys = java.util.Arrays.copyOf(heldKeys, held * 2);
        }
        heldLimiters[held] = limiter;
        heldKeys[held] = key;
        held++;
    }

    /** Gives back every held permit; never throws. */
    void releaseAll() {
        for (int i = 0; i < held; i++) {
            try {
                heldLimiters[i].release(heldKeys[i]);
            } catch (Throwable ignored) {
                // a failing release must not stop the others; the limiter counts its own errors
            }
            heldLimiters[i] = null;
            heldKeys[i] = null;
        }
        held = 0;
    }

    void clearMatches(int count) {
        for (int i = 0; i < count && i < matched.length; i++) {
            matched[i] = null;
        }
        shownRule = null;
    }
}
