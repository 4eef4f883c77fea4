package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.outbound.CallbackEnd;
import dev.limiter.agent.outbound.ClientAdapter;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundCallEnd;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.rules.RuleSet;

/**
 * The Apache HttpClient 5 async adapter of the outbound gate, called from the woven {@code executeImmediate} (the
 * first step of every attempt of an exchange, on the thread that executes it; nothing is sent yet). It never parks
 * that thread: a rejected exchange fails through its callback with
 * {@link dev.limiter.api.OutboundRateLimitException} (the caller's future and {@code FutureCallback} see it); one
 * made to wait is executed later by {@link DelayedExecution}; an admitted one whose end matters is executed with a
 * callback that tells its end first ({@link CallbackEnd}). In those cases the agent runs the step itself and
 * the woven method returns at once.
 */
final class ApacheAsyncLimiter extends ClientAdapter {

    /** {@code AsyncExecCallback}: {@code handleResponse(response, entity)}, {@code failed(e)}, {@code completed()}. */
    static final CallbackEnd.Shape CALLBACK = new CallbackEnd.Shape("handleResponse", 0, "failed", 0, "completed");

    /** What the woven method gets when the agent has run or answered the step: it returns at once. */
    private static final Object ANSWERED = new Object();

    ApacheAsyncLimiter(OutboundGate gate) {
        super(gate, "Apache HttpClient (async)");
    }

    /** {@code executeImmediate(request, entityProducer, scope, chain, callback)}, its arguments in one array. */
    @Override
    protected Object decide(RuleSet rules, OutboundCall call, Object client, Object arguments, Object unused,
            Object none, boolean async) throws Throwable {
        Object[] step = (Object[]) arguments;
        ApacheApi api = ApacheApi.of(client);
        ApacheAsyncApi exchange = ApacheAsyncApi.of(client);
        if (step.length != 5 || !usable(api) || !usable(exchange.problem)) {
            return null;
        }
        api.begin(call, exchange.target(step[2]), step[0], true);
        int verdict = gate.decide(rules, call);
        if (verdict == OutboundGate.REJECT) {
            exchange.failed(step[4], OutboundGate.rejection(call));
            return ANSWERED;
        }
        OutboundCallEnd end = call.endToken();
        if (verdict == OutboundGate.DELAY) {
            DelayedExecution.schedule(exchange, client, step, call.delayNanos(), call.delayed(), end);
            return ANSWERED;
        }
        if (end == null) {
            return null;
        }
        Object told = CallbackEnd.wrap(exchange.callbackType, CALLBACK, step[4], end);
        ClientBridge.untouched(new Execution(exchange, client, step, told));
        return ANSWERED;
    }
}
