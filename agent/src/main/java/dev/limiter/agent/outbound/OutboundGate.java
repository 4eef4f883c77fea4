package dev.limiter.agent.outbound;

import dev.limiter.agent.decision.CallGate;
import dev.limiter.agent.decision.Decider;
import dev.limiter.agent.decision.Waiting;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.http.FirstRequest;
import dev.limiter.agent.http.PermitRelease;
import dev.limiter.api.OutboundRateLimitException;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Policy;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeyBound;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * The decision for a call the service makes, shared by every HTTP client's adapter: match the {@code http-client:}
 * rules on the call's method, host, port, scheme and path, hold it while a {@code Retry-After} answer pauses its
 * key, run the {@link Decider}, and tell the adapter what to do: send it now (with a token to hold until its end,
 * if anything waits for that), reject it, or (an asynchronous call) send it later.
 *
 * <p>A blocking call that must wait ({@code on-limit: wait}) parks its own thread here, without pinning a virtual
 * thread ({@link Waiting}); an asynchronous call is never parked: the adapter schedules it. A rejection is the
 * client's own kind of failure ({@link OutboundRateLimitException}, an {@code IOException}), made before anything
 * is sent. Allowed path for a rule without {@code concurrency} or {@code honor-retry-after}: no allocation.
 */
public final class OutboundGate extends CallGate<OutboundCall> {

    /** Send the call now ({@link OutboundCall#endToken()}: what to hold until it ends, or null). */
    public static final int SEND = 0;
    /** Reject the call: {@link #rejection}. */
    public static final int REJECT = 1;
    /** Send the asynchronous call after {@link OutboundCall#delayNanos()}. */
    public static final int DELAY = 2;



    public OutboundGate(RuleSetHolder holder, ThrottledLog log) {
        super(holder, log);
    }

    @Override
    protected OutboundCall newBuffers() {
        return new OutboundCall();
    }

    /**
     * The rules in force if any of them is an {@code http-client} rule, else null: then the call is not looked at
     * at all. The first look of every adapter.
     */
    public RuleSet clientRules() {
        RuleSet rules = holder.current();
        if (rules.maxClientMatches() == 0) {
            return null;
        }
        FirstRequest.seen(); // the application is at work: the JMX registration need not wait longer
        return rules;
    }

    /** The log the adapters report their failures to. */
    public ThrottledLog log() {
        return log;
    }

    /** This thread's call buffers. */
    public OutboundCall call() {
        return buffers();
    }

    /**
     * True if any rule of {@code rules} matches {@code call} (set up by {@link OutboundCall#begin}): for a client
     * whose call is decided later, when it is sent, and which wraps only the calls a rule may limit.
     */
    public boolean matches(RuleSet rules, OutboundCall call) {
        call.match(rules);
        return call.count > 0;
    }

    /** Decides {@code call} (set up by {@link OutboundCall#begin}) against {@code rules}: {@link #SEND}, ... */
    public int decide(RuleSet rules, OutboundCall call) {
        call.match(rules);
        if (call.count == 0) {
            return SEND;
        }
        long pause = decider.pauseLeft(call.matched, call.count, call);
        if (pause > 0) {
            Policy policy = call.pausedRule.policy();
            if (!policy.waits() || pause > policy.maxWaitNanos()) {
                decider.rejectPaused(call, pause);
                return REJECT;
            }
            countWait(call.pausedRule, pause);
            if (call.async) {
                call.delayNanos = pause; // decided again when the pause is over
                return DELAY;
            }
            if (!Waiting.park(pause)) {
                decider.rejectPaused(call, pause);
                Thread.currentThread().interrupt();
                return REJECT;
            }
        }
        int base = call.permits.height();
        Rule rejecting = decider.decide(call.matched, call.count, call);
        if (rejecting != null) {
            call.pausedRule = rejecting; // the rule the rejection names
            return REJECT;
        }
        if (call.async && call.waitNanos > 0) {
            call.delayNanos = call.waitNanos;
            call.delayed = call.detachReservations();
            call.end = endOf(call, base);
            return DELAY;
        }
        Rule interrupted = Waiting.awaitReserved(call, base);
        if (interrupted != null) {
            call.pausedRule = interrupted;
            return REJECT;
        }
        call.end = endOf(call, base);
        return SEND;
    }

    /**
     * What a blocking call's woven method is told after {@link #decide} answered {@code verdict}: the rejection to
     * throw, or null to send the call (holding, for the bridge, what waits for its end). A blocking call is never
     * {@link #DELAY}ed: it waited in the gate.
     */
    public static Object answerBlocking(OutboundCall call, int verdict) {
        if (verdict == REJECT) {
            return rejection(call);
        }
        if (call.endToken() != null) {
            ClientBridge.hold(call.endToken());
        }
        return null;
    }

    /** The exception a rejected call fails with, after {@link #decide} answered {@link #REJECT}. */
    public static OutboundRateLimitException rejection(OutboundCall call) {
        return new OutboundRateLimitException(call.pausedRule.id(), call.out[Outcome.RETRY_AFTER_MILLIS]);
    }

    /** What waits for the end of the admitted call: its permits above {@code base}, its Retry-After pauses. */
    private static OutboundCallEnd endOf(OutboundCall call, int base) {
        int honouring = 0;
        for (int i = 0; i < call.count; i++) {
            if (call.matched[i].honorsRetryAfter()) {
                honouring++;
            }
        }
        boolean holds = call.permits.height() > base;
        if (honouring == 0 && !holds) {
            return null;
        }
        Rule[] rules = null;
        String[] keys = null;
        if (honouring > 0) {
            rules = new Rule[honouring];
            keys = new String[honouring];
            int at = 0;
            for (int i = 0; i < call.count; i++) {
                Rule rule = call.matched[i];
                if (rule.honorsRetryAfter()) {
                    rules[at] = rule;
                    keys[at++] = KeyBound.bound(keyOrMissing(call, rule, i));
                }
            }
        }
        return new OutboundCallEnd(call.api(), holds ? new PermitRelease(call.permits, null) : null, rules, keys);
    }

    private static String keyOrMissing(OutboundCall call, Rule rule, int index) {
        try {
            String key = call.key(rule, index);
            return key == null ? OutboundCall.MISSING : key;
        } catch (Throwable t) {
            return OutboundCall.MISSING;
        }
    }

    private static void countWait(Rule rule, long nanos) {
        rule.stats().waited().increment();
        rule.stats().waitNanos().add(nanos);
    }
}
