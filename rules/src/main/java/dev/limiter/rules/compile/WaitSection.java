package dev.limiter.rules.compile;

import dev.limiter.core.RateLimitStrategy;
import dev.limiter.rules.Rule;
import dev.limiter.rules.StoreSpec;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;

/**
 * Validates {@code on-limit: reject|wait} and {@code max-wait}: what a method call gets when its rule's limit is
 * reached. {@code wait} reserves the permit for the time it accrues and parks the calling thread until then, at
 * most {@code max-wait}; it is refused wherever that time is not exactly known or a waiting thread is not the
 * caller's own choice.
 */
final class WaitSection {

    /** The longest {@code max-wait}: a thread parked longer than this is better told to come back. */
    static final long MAX_WAIT_MILLIS = RateLimitStrategy.MAX_WAIT_NANOS / 1_000_000L;

    private WaitSection() {
    }

    /**
     * The rule's max-wait in nanoseconds, 0 for {@code on-limit: reject} (the default), or -1 after recording
     * why the rule cannot wait. {@code target}, {@code strategy} and {@code store} may be null (already reported).
     */
    static long read(Fields rule, Rule.Target target, RateLimitStrategy strategy, boolean severalLimits,
            StoreSpec store, Problems problems) {
        String onLimit = rule.has("on-limit") ? rule.choice("on-limit", "reject", "wait") : null;
        boolean wait = "wait".equals(onLimit);
        if (!wait) {
            if (rule.has("on-limit") && onLimit == null) {
                return -1; // not a spelling of either: reported
            }
            if (rule.has("max-wait")) {
                problems.add(rule.get("max-wait"), "max-wait applies only with 'on-limit: wait'");
                return -1;
            }
            return 0;
        }
        long maxWaitMillis = maxWait(rule, problems);
        String refusal = refusal(target, strategy, severalLimits, store);
        if (refusal != null) {
            problems.add(rule.get("on-limit"), refusal);
            return -1;
        }
        return maxWaitMillis < 0 ? -1 : maxWaitMillis * 1_000_000L;
    }

    private static long maxWait(Fields rule, Problems problems) {
        if (!rule.has("max-wait")) {
            problems.add(rule.get("on-limit"), "on-limit: wait needs 'max-wait' (e.g. 'max-wait: 500ms'), the"
                    + " longest a call may wait before it is rejected");
            return -1;
        }
        String text = rule.string("max-wait");
        if (text == null) {
            return -1;
        }
        long millis = Durations.millis(text);
        if (millis <= 0 || millis > MAX_WAIT_MILLIS) {
            problems.add(rule.get("max-wait"), "max-wait must be a duration from 1ms to 1m (e.g. '500ms', '2s'),"
                    + " not '" + Fields.shorten(text) + "'");
            return -1;
        }
        return millis;
    }

    /** Why a rule like this cannot wait, or null if it can. */
    private static String refusal(Rule.Target target, RateLimitStrategy strategy, boolean severalLimits,
            StoreSpec store) {
        if (target != null && target != Rule.Target.METHOD) {
            return "on-limit: wait is for method rules; an HTTP thread that waits is an operator's explicit choice"
                    + " not supported yet";
        }
        if (strategy != null && !strategy.reserves()) {
            return "on-limit: wait needs a strategy that knows exactly when the next permit comes (token-bucket or"
                    + " leaky-bucket), not '" + Fields.shorten(strategy.name()) + "'";
        }
        if (severalLimits) {
            return "on-limit: wait takes one limit: a wait for several limits at once is not supported yet";
        }
        if (store != null && store.isRedis()) {
            return "on-limit: wait needs 'store: local': a wait needs the exact time of its reservation, which the"
                    + " shared Redis scripts do not return yet";
        }
        return null;
    }
}
