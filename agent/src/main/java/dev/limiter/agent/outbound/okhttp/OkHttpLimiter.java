package dev.limiter.agent.outbound.okhttp;

import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.RuleSet;

/**
 * The OkHttp 4 adapter of the outbound gate, called from the woven {@code RealCall.execute()} and
 * {@code enqueue(Callback)} through {@link ClientBridge} and {@link OutboundClients}.
 *
 * <p>{@code execute()} is blocking: a call that must wait parks its thread in the gate, a rejected one throws
 * {@link dev.limiter.api.OutboundRateLimitException} (an {@code IOException}, as {@code execute} declares). For
 * {@code enqueue} the agent answers the callback itself and the woven method returns at once: a rejection goes to
 * {@code onFailure} with that exception, a call that must wait is enqueued later by {@link DelayedEnqueue} (no
 * thread waits), and a call whose end matters ({@code concurrency}, {@code honor-retry-after}) is enqueued with a
 * callback that tells {@link CallbackEnd} first. Nothing is sent before the decision.
 */
final class OkHttpLimiter implements OutboundClients.Adapter {

    /** What the woven {@code enqueue} gets when the agent has answered its callback: it returns at once. */
    private static final Object ANSWERED = new Object();

    private final OutboundGate gate;

    OkHttpLimiter(OutboundGate gate) {
        this.gate = gate;
    }

    /** {@code callback} is {@code enqueue}'s argument, null for {@code execute()}. */
    @Override
    public Object onCallStart(Object call, Object callback, Object unused, Object none, boolean async) {
        RuleSet rules = gate.clientRules();
        if (rules == null) {
            return null;
        }
        OkHttpApi api = OkHttpApi.of(call);
        if (!api.usable(gate.log(), "OkHttp")) {
            return null;
        }
        OutboundCall decision = gate.call();
        try {
            Object request = api.request(call);
            Object url = api.url(request);
            decision.begin(api, request, api.method(request), api.scheme(url), api.host(url), api.port(url),
                    api.path(url), async);
            int verdict = gate.decide(rules, decision);
            return async ? enqueued(api, call, callback, decision, verdict) : executed(decision, verdict);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            gate.log().warn("limiter: could not decide an OkHttp call; it is sent unchecked", t);
            return null;
        } finally {
            decision.end();
        }
    }

    /** {@code execute()}: the rejection to throw, or null to run it (holding what waits for its end). */
    private static Object executed(OutboundCall decision, int verdict) {
        if (verdict == OutboundGate.REJECT) {
            return OutboundGate.rejection(decision);
        }
        if (decision.endToken() != null) {
            ClientBridge.hold(decision.endToken());
        }
        return null; // a blocking call is never delayed: it waited in the gate
    }

    /** {@code enqueue(callback)}: null to run it untouched, else {@link #ANSWERED} once the agent answered it. */
    private static Object enqueued(OkHttpApi api, Object call, Object callback, OutboundCall decision, int verdict)
            throws Throwable {
        switch (verdict) {
            case OutboundGate.REJECT:
                api.onFailure(callback, call, OutboundGate.rejection(decision));
                return ANSWERED;
            case OutboundGate.DELAY:
                DelayedEnqueue.schedule(api, call, callback, decision.delayNanos(), decision.delayed(),
                        decision.endToken());
                return ANSWERED;
            default:
                if (decision.endToken() == null) {
                    return null;
                }
                Object told = CallbackEnd.wrap(api, callback, decision.endToken());
                ClientBridge.untouched(() -> {
                    try {
                        api.enqueue(call, told);
                    } catch (Throwable t) {
                        throw new IllegalStateException(t);
                    }
                });
                return ANSWERED;
        }
    }
}
