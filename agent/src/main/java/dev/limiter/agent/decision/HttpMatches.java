package dev.limiter.agent.decision;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/**
 * One thread's rules matching its last HTTP request, kept for the next request of the same method and path: a
 * thread serves the same few endpoints over and over, so when the rule set is the same object and method and path
 * are equal (the path is usually the very string the adapter kept) two short {@code equals} replace a walk of the
 * path trie. Any reload makes a new rule set, so an answer never outlives the rules it came from. Only its own
 * thread touches an instance; the array grows on the rare request that matches more rules than any before.
 */
public final class HttpMatches {

    private Rule[] matched = new Rule[8];
    private RuleSet lastRules;
    private String lastMethod;
    private String lastPath;
    private int lastCount;

    /** The rules matching {@code method} and {@code path} into {@link #rules()}; their count. */
    public int match(RuleSet rules, String method, String path) {
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

    /** The rules of the last {@link #match}, the first {@code count} of them. */
    public Rule[] rules() {
        return matched;
    }
}
