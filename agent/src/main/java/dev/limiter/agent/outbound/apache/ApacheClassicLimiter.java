package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.outbound.ClientAdapter;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.rules.RuleSet;

/**
 * The Apache HttpClient 5 classic adapter of the outbound gate, called from the woven {@code doExecute} through
 * {@link ClientBridge} and {@link OutboundClients}: a call that must wait parks its thread in the gate; a rejected
 * one throws {@link dev.limiter.api.OutboundRateLimitException}, an {@code IOException} as {@code execute}
 * declares, before anything is sent. The call's end is the response's return ({@code concurrency} permits go back
 * then; its body may still be read).
 */
final class ApacheClassicLimiter extends ClientAdapter {

    ApacheClassicLimiter(OutboundGate gate) {
        super(gate, "Apache HttpClient");
    }

    /** {@code doExecute(target, request, context)} of {@code client}. */
    @Override
    protected Object decide(RuleSet rules, OutboundCall call, Object client, Object target, Object request,
            Object context, boolean async) throws Throwable {
        ApacheApi api = ApacheApi.of(client);
        if (request == null || !usable(api)) {
            return null;
        }
        api.begin(call, target, request, false);
        return OutboundGate.answerBlocking(call, gate.decide(rules, call));
    }
}
