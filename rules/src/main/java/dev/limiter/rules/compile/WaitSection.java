package dev.limiter.rules.compile;

import dev.limiter.core.RateLimitStrategy;
import dev.limiter.rules.Rule;
import dev.limiter.rules.StoreSpec;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;

/**
 * Validates {@code on-limit: reject|wait}, {@code max-wait} and {@code max-waiters}: what a call gets when its
 * rule's limit is reached. {@code wait} reserves the permit for the time it accrues and parks the calling thread
 * until then, at most {@code max-wait}; it is refused wherever that time is not exactly known. On {@code http:}
 * and {@code jaxrs:} rules each waiting request holds a server thread, so there the operator must also say how
 * many may wait at once ({@code max-waiters}); beyond them a request is rejected at once. On {@code grpc:} rules it
 * is refused: the gRPC adapter decides a call where grpc-java starts it and never parks that thread.
 */
final class WaitSection {

    /** The longest {@code max-wait}: a thread parked longer than this is better told to come back. */
    static final long MAX_WAIT_MILLIS = RateLimitStrategy.MAX_WAIT_NANOS / 1_000_000L;

    /** The largest {@code max-waiters}: far beyond any platform-thread pool; virtual threads may use it. */
    static final int MAX_WAITERS = 100_000;

    /**
     * A rule's waiting: {@code maxWaitNanos} 0 for {@code on-limit: reject}; {@code maxWaiters} 0 for no bound
     * (method rules without {@code max-waiters}).
     */
    record Waits(long maxWaitNanos, int maxWaiters) {

        static final Waits REJECT = new Waits(0, 0);
    }

    private WaitSection() {
    }

    /**
     * The rule's waiting, {@link Waits#REJECT} for {@code on-limit: reject} (the default), or null after recording
     * why the rule cannot wait. {@code target}, {@code strategy} and {@code store} may be null (already reported).
     */
    static Waits read(Fields rule, Rule.Target target, RateLimitStrategy strategy, boolean severalLimits,
            StoreSpec store, Problems problems) {
        String onLimit = rule.has("on-limit") ? rule.choice("on-limit", "reject", "wait") : null;
        boolean wait = "wait".equals(onLimit);
        if (!wait) {
            if (rule.has("on-limit") && onLimit == null) {
                return null; // not a spelling of either: reported
            }
            for (String key : new String[] {"max-wait", "max-waiters"}) {
                if (rule.has(key)) {
                    problems.add(rule.get(key), key + " applies only with 'on-limit: wait'");
                    return null;
                }
            }
            return Waits.REJECT;
        }
        if (target == Rule.Target.GRPC) {
            problems.add(rule.get("on-limit"), "on-limit: wait does not apply to a grpc rule: the agent decides a"
                    + " gRPC call as grpc-java starts it and never parks that thread, so no call would wait; write"
                    + " 'on-limit: reject' (the client gets RESOURCE_EXHAUSTED and retry-after), or give a"
                    + " token-bucket a larger capacity for bursts");
            return null;
        }
        long maxWaitMillis = maxWait(rule, problems);
        int maxWaiters = maxWaiters(rule, target, problems);
        String refusal = refusal(strategy, severalLimits, store);
        if (refusal != null) {
            problems.add(rule.get("on-limit"), refusal);
            return null;
        }
        return maxWaitMillis < 0 || maxWaiters < 0 ? null : new Waits(maxWaitMillis * 1_000_000L, maxWaiters);
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

    /** {@code max-waiters}, 0 when absent on a method rule, -1 after recording a problem. */
    private static int maxWaiters(Fields rule, Rule.Target target, Problems problems) {
        if (!rule.has("max-waiters")) {
            if (target == Rule.Target.HTTP || target == Rule.Target.JAXRS) {
                problems.add(rule.get("on-limit"), "on-limit: wait on " + (target == Rule.Target.HTTP ? "an http:"
                        : "a jaxrs:") + " rule needs 'max-waiters' (e.g. 'max-waiters: 20'): each waiting request"
                        + " holds a server thread, and beyond that many a request is rejected at once");
                return -1;
            }
            return 0;
        }
        Long waiters = rule.integer("max-waiters", null);
        if (waiters == null) {
            return -1;
        }
        if (waiters < 1 || waiters > MAX_WAITERS) {
            problems.add(rule.get("max-waiters"), "max-waiters must be from 1 to " + MAX_WAITERS + ", not "
                    + waiters);
            return -1;
        }
        return waiters.intValue();
    }

    /** Why a rule like this cannot wait, or null if it can. */
    private static String refusal(RateLimitStrategy strategy, boolean severalLimits, StoreSpec store) {
        if (strategy != null && !strategy.reserves()) {
            return "on-limit: wait needs a strategy that knows exactly when the next permit comes (token-bucket,"
                    + " leaky-bucket, fixed-window or sliding-log), not '" + Fields.shorten(strategy.name()) + "'";
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
