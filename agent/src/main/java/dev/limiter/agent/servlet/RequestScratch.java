package dev.limiter.agent.servlet;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/**
 * Per-thread buffers for one request's decision, allocated once per thread and reused, so that checking an
 * allowed request allocates nothing: the matched rules (kept for the next request of the same method and path,
 * {@link #match}), the outcome of the current check, the outcome that goes
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
    private RuleSet lastRules;
    private String lastMethod;
    private String lastPath;
    private int lastCount;
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

    /**
     * The rules matching {@code method} and {@code path}, into {@link #matched}; their count. A thread serves
     * the same few endpoints over and over, so the previous request's answer is kept and reused when the rule
     * set is the same object and method and path are equal (the path is usually the very string
     * {@link JoinedPath} kept): two short {@code equals} instead of walking the path trie segment by segment.
     * Any reload makes a new rule set, so an answer never outlives the rules it came from.
     */
    int match(RuleSet rules, String method, String path) {
        if (rules == lastRules && path != null && path.equals(lastPath) && method != null
                && method.equals(lastMethod)) {
            return lastCount;
        }
        if (matched.length < rules.maxHttpMatches()) {
            matched = new Rule[rules.maxHttpMatches()];
        }
        lastRules = null; // not valid while matched[] is being overwritten
        int count = rules.matchHttp(method, path, matched);
        lastMethod = method;
        lastPath = path;
        lastCount = count;
        lastRules = rules;
        return count;
    }

    /** Ends a request's decision: the matches stay for {@link #match} to reuse, the shown rule does not. */
    void endMatch() {
        shownRule = null;
    }
}
