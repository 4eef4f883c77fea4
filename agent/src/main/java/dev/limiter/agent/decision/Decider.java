package dev.limiter.agent.decision;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import dev.limiter.core.store.AllOf;
import dev.limiter.rules.Mode;
import dev.limiter.rules.OnError;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.key.KeyBound;
import dev.limiter.rules.Policy;
import dev.limiter.rules.Tier;

/**
 * The one decision loop every entry point runs: for each rule that applies to a call, take a permit for the
 * call's key, count the answer ({@link Verdict}), and either admit the call (every rule admitted, or only dry-run
 * rules refused) or reject it with the first enforced rule that refused.
 *
 * <p>A rejected call keeps no permit: what earlier rules of the same call took and hold until exit is given back
 * at once. A rule that fails (its key cannot be read, its store or strategy throws) is counted in its
 * {@code errors}, logged at most every few seconds, and resolved by its {@code on-error}: {@code allow} passes
 * over it, {@code reject} rejects the call with a retry after one second.
 *
 * <p>Every key goes through {@link KeyBound} before it reaches a limiter: a client-chosen key longer than 256
 * characters is kept as a fixed-size digest, so {@code max-keys} bounds a rule's memory (and a Redis store's keys)
 * whatever the clients send. One length check for the usual key.
 *
 * <p>Adapters translate: a servlet request or a woven method call into the rules and a {@link Call}, the answer
 * into a 429 or a thrown rejection. Allowed path: no locks, no logging, no allocation.
 */
public final class Decider {

    /** How long a call rejected because its rule failed is told to wait. */
    private static final long FAILED_RETRY_MILLIS = 1000;

    private final ThrottledLog log;

    public Decider(ThrottledLog log) {
        this.log = log;
    }

    /**
     * Decides {@code call} against {@code rules[0..count)}; returns the rejecting rule (its outcome in
     * {@link Call#out}), or null if the call is admitted (the permits to give back at its end in
     * {@link Call#permits}, the outcome for the headers in {@link Call#binding}).
     */
    public Rule decide(Rule[] rules, int count, Call call) {
        int base = call.permits.height();
        long[] out = call.out;
        call.bindingRule = null;
        call.clearReservations();
        for (int i = 0; i < count; i++) {
            Rule rule = rules[i];
            Policy policy = rule.policy();
            boolean enforce = rule.mode() == Mode.ENFORCE;
            Tier tier;
            String key;
            int answer;
            try {
                if (policy.conditional()) {
                    if (!policy.applies(call)) {
                        continue; // the rule's request condition rules the call out: not counted at all
                    }
                    if (policy.exempts(call)) {
                        rule.stats().exempt().increment();
                        continue;
                    }
                }
                key = call.key(rule, i);
                if (key == null) {
                    rule.stats().errors().increment();
                    log.warn(Warning.MISSING_KEY, call.missingKey(rule, i), null);
                    if (rule.onError() == OnError.REJECT && enforce) {
                        return failed(rule, call, base);
                    }
                    continue;
                }
                key = KeyBound.bound(key);
                tier = policy.hasOverrides() ? policy.tier(key, call) : policy.main();
                if (tier.unlimited()) {
                    Verdict.count(rule, tier, enforce, true, key, out);
                    continue;
                }
                long cost = policy.costArgument() < 0 ? policy.cost() : call.argumentCost();
                answer = cost > tier.maxCost() ? unaffordable(tier, key, cost, out)
                        : enforce && policy.waits() ? reserve(rule, tier.limiters()[0], key, cost, policy, call)
                        : take(tier.limiters(), key, cost, call);
            } catch (Throwable t) {
                rule.stats().errors().increment();
                if (rule.onError() == OnError.REJECT && enforce) {
                    log.warn(Warning.DECISION, failure(rule, call, "rejected (on-error: reject)"), t);
                    return failed(rule, call, base);
                }
                log.warn(Warning.DECISION, failure(rule, call, "allowed (on-error: allow)"), t);
                continue;
            }
            boolean admitted = AllOf.admitted(answer);
            int verdict = Verdict.count(rule, tier, enforce, admitted, key, out);
            if (verdict == Verdict.REJECTED) {
                call.permits.releaseTo(base);
                call.refundReservations();
                call.rejectText = tier.text(AllOf.index(answer));
                return rule;
            }
            if (verdict == Verdict.ADMITTED) {
                if (tier.releasesOnExit()) {
                    call.permits.hold(tier.limiters()[0], key, tier.samplesLatency());
                }
                if (enforce && (call.bindingRule == null || out[Outcome.REMAINING] < call.binding[Outcome.REMAINING])) {
                    System.arraycopy(out, 0, call.binding, 0, Outcome.SIZE);
                    call.bindingRule = rule;
                    call.bindingText = tier.text(answer);
                }
            }
        }
        countWaits(call);
        return null;
    }

    /**
     * Takes {@code cost} for {@code key} now or reserves it for later, within the rule's {@code max-wait}
     * ({@code on-limit: wait}, one limit: the rules refuse more). The wait is recorded on the call, which parks
     * after the decision; a rejection took nothing. A dry run never waits: it checks like {@code reject}. A call
     * that would wait beyond the rule's {@code max-waiters}, or whose adapter or thread must not park (WebFlux, an
     * event loop), is rejected at once and counted in {@code waitRefused}.
     */
    private static int reserve(Rule rule, KeyedLimiter limiter, String key, long cost, Policy policy, Call call) {
        long[] out = call.out;
        RuleStats stats = rule.stats();
        if (limiter.reserve(key, cost, 0, out) >= 0) {
            return 0; // a permit free now: the waiter gauge is never touched on this path
        }
        boolean canWait = call.delaysWithoutThread() || call.parksAfterDecision() && Waiting.mayPark();
        if (!canWait || !stats.enterWaiting(policy.maxWaiters())) {
            // an adapter or a thread that must not block (WebFlux, an event loop), or every waiter slot taken:
            // rejected before reserving any later time, so no concurrent caller is refused for a reservation
            // given back an instant later, and pending waits stay in order
            stats.waitRefused().increment();
            return ~0;
        }
        long wait = limiter.reserve(key, cost, policy.maxWaitNanos(), out);
        if (wait <= 0) {
            stats.leaveWaiting(); // beyond max-wait (rejected), or a permit came free meanwhile
            return wait < 0 ? ~0 : 0;
        }
        call.reserved(limiter, key, cost, out[Outcome.STAMP], wait, rule);
        return 0;
    }

    /**
     * Rejects a cost read from an argument ({@code cost: arg:N}) that is above a limit's budget: no call could
     * ever pay it, so nothing is taken (as for a fixed cost above the budget, which the rules refuse). The
     * outcome reports that limit's state, with a retry after its window.
     */
    private static int unaffordable(Tier tier, String key, long cost, long[] out) {
        KeyedLimiter[] limiters = tier.limiters();
        int index = 0;
        while (index < limiters.length - 1 && Tier.budget(limiters[index]) >= cost) {
            index++;
        }
        KeyedLimiter limiter = limiters[index];
        long window = limiter.config().windowMillis();
        long remaining = limiter.remaining(key, out);
        Outcome.reject(out, remaining, out[Outcome.RESET_EPOCH_SECONDS] * 1000, window, limiter.config().limit());
        return ~index;
    }

    /**
     * Before an outgoing call is decided: the longest pause a {@code Retry-After} answer put on its key, among
     * {@code rules[0..count)} that honour it and apply to it (0 if none); that rule and key go to
     * {@link Call#pausedRule} and {@link Call#pausedKey}. A paused key of a dry-run rule is counted as
     * {@code wouldReject} and does not hold the call. A key that cannot be read here is left to {@link #decide}.
     */
    public long pauseLeft(Rule[] rules, int count, Call call) {
        call.pausedRule = null;
        call.pausedKey = null;
        long longest = 0;
        long now = 0;
        for (int i = 0; i < count; i++) {
            Rule rule = rules[i];
            if (!rule.honorsRetryAfter() || rule.pausedKeys() == 0) {
                continue;
            }
            String key;
            try {
                if (rule.policy().conditional() && (!rule.policy().applies(call) || rule.policy().exempts(call))) {
                    continue;
                }
                key = call.key(rule, i);
            } catch (Throwable t) {
                continue;
            }
            if (key == null) {
                continue;
            }
            key = KeyBound.bound(key);
            now = now == 0 ? System.nanoTime() : now;
            long left = rule.pauses().nanosLeft(key, now);
            if (left <= 0) {
                continue;
            }
            if (rule.mode() != Mode.ENFORCE) {
                pausedOutcome(rule, left, call.out);
                Verdict.count(rule, rule.policy().main(), false, false, key, call.out);
            } else if (left > longest) {
                longest = left;
                call.pausedRule = rule;
                call.pausedKey = key;
            }
        }
        return longest;
    }

    /**
     * Rejects the call in the name of the pause {@link #pauseLeft} found ({@code leftNanos} of it to go): counted as
     * the rule's rejection, with a retry after the pause's end. Returns the rule.
     */
    public Rule rejectPaused(Call call, long leftNanos) {
        Rule rule = call.pausedRule;
        pausedOutcome(rule, leftNanos, call.out);
        Verdict.count(rule, rule.policy().main(), true, false, call.pausedKey, call.out);
        call.rejectText = rule.headerText();
        return rule;
    }

    private static void pausedOutcome(Rule rule, long leftNanos, long[] out) {
        long millis = (leftNanos + 999_999) / 1_000_000;
        Outcome.reject(out, 0, System.currentTimeMillis() + millis, millis,
                rule.policy().main().limiters()[0].config().limit());
    }

    /** Counts the admitted call's waits in {@code Waited} and its total, once the whole decision admitted it. */
    private static void countWaits(Call call) {
        if (call.waitRule != null) {
            call.waitRule.stats().waited().increment();
            call.waitRule.stats().waitNanos().add(call.waitNanos);
        }
    }

    /**
     * Takes {@code cost} for {@code key} from every limit of a tier: one limiter directly (the usual rule), several
     * as one decision ({@link AllOf}). Returns {@link AllOf}'s answer: the binding limit's index, or its complement
     * on a rejection (a dry-run rejection takes nothing either).
     */
    private static int take(KeyedLimiter[] limiters, String key, long cost, Call call) {
        if (limiters.length == 1) {
            boolean admitted = cost == 1 ? limiters[0].tryAcquire(key, call.out)
                    : limiters[0].tryAcquire(key, cost, call.out);
            return admitted ? 0 : ~0;
        }
        return AllOf.tryAcquire(limiters, key, cost, call.out, call.scratch, call.stamps);
    }

    /** Rejects because {@code rule} failed and its {@code on-error} is {@code reject}. */
    private static Rule failed(Rule rule, Call call, int base) {
        call.permits.releaseTo(base);
        call.refundReservations();
        call.rejectText = rule.headerText();
        Outcome.reject(call.out, 0, System.currentTimeMillis() + FAILED_RETRY_MILLIS, FAILED_RETRY_MILLIS, 0);
        return rule;
    }

    private static String failure(Rule rule, Call call, String resolution) {
        return "limiter: rule " + rule.id() + " failed" + call.where() + "; the " + call.noun() + " is " + resolution;
    }
}
