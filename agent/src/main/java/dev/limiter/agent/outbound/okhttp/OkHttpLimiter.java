package dev.limiter.agent.outbound.okhttp;

import dev.limiter.agent.outbound.CallbackEnd;
import dev.limiter.agent.outbound.ClientAdapter;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.rules.RuleSet;

/**
 * The OkHttp (4 and 5) adapter of the outbound gate, called from the woven {@code RealCall.execute()} and
 * {@code enqueue(Callback)} through {@link ClientBridge} and {@link OutboundClients}.
 *
 * <p>{@code execute()} is blocking: a call that must wait parks its thread in the gate, a rejected one throws
 * {@link dev.limiter.api.OutboundRateLimitException} (an {@code IOException}, as {@code execute} declares). For
 * {@code enqueue} the agent answers the callback itself and the woven method returns at once: a rejection goes to
 * {@code onFailure} with that exception, a call that must wait is enqueued later by {@link DelayedEnqueue} (no
 * thread waits), and a call whose end matters ({@code concurrency}, {@code honor-retry-after}) is enqueued with a
 * callback that tells {@link CallbackEnd} first. Nothing is sent before the decision.
 */
final class OkHttpLimiter extends ClientAdapter {

    /** {@code okhttp3.Callback}: {@code onResponse(call, response)}, {@code onFailure(call, exception)}. */
    static final CallbackEnd.Shape CALLBACK = new CallbackEnd.Shape("onResponse", 1, "onFailure", 1, null);

    /** What the woven {@code enqueue} gets when the agent has answered its callback: it returns at once. */
    private static final Object ANSWERED = new Object();

    OkHttpLimiter(OutboundGate gate) {
        super(gate, "OkHttp");
    }

    /** {@code callback} is {@code enqueue}'s argument, null for {@code execute()}. */
    @Override
    protected Object decide(RuleSet rules, OutboundCall decision, Object call, Object callback, Object unused,
            Object none, boolean async) throws Throwable {
        OkHttpApi api = OkHttpApi.of(call);
        if (!usable(api)) {
            return null;
        }
        api.begin(decision, call, async);
        int verdict = gate.decide(rules, decision);
        return async ? enqueued(api, call, callback, decision, verdict)
                : OutboundGate.answerBlocking(decision, verdict);
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
                Object told = CallbackEnd.wrap(api.callbackType, CALLBACK, callback, decision.endToken());
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
