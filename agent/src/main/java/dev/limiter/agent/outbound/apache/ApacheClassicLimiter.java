package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.RuleSet;

/**
 * The Apache HttpClient 5 classic adapter of the outbound gate, called from the woven {@code doExecute} through
 * {@link ClientBridge} and {@link OutboundClients}: a call that must wait parks its thread in the gate; a rejected
 * one throws {@link dev.limiter.api.OutboundRateLimitException}, an {@code IOException} as {@code execute}
 * declares, before anything is sent. The call's end is the response's return ({@code concurrency} permits go back
 * then; its body may still be read).
 */
final class ApacheClassicLimiter implements OutboundClients.Adapter {

    private final OutboundGate gate;

    ApacheClassicLimiter(OutboundGate gate) {
        this.gate = gate;
    }

    @Override
    public Object onCallStart(Object client, Object target, Object request, Object context, boolean async) {
        RuleSet rules = gate.clientRules();
        if (rules == null || request == null) {
            return null;
        }
        ApacheApi api = ApacheApi.of(client);
        if (!api.usable(gate.log(), "Apache HttpClient")) {
            return null;
        }
        OutboundCall call = gate.call();
        try {
            call.begin(api, request, api.method(request), api.scheme(target, request), api.host(target, request),
                    api.port(target, request), api.path(request), false);
            switch (gate.decide(rules, call)) {
                case OutboundGate.REJECT:
                    return OutboundGate.rejection(call);
                case OutboundGate.SEND:
                    if (call.endToken() != null) {
                        ClientBridge.hold(call.endToken());
                    }
                    return null;
                default:
                    return null; // a blocking call is never delayed: it waited in the gate
            }
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            gate.log().warn("limiter: could not read an Apache HttpClient request; it is sent unchecked", t);
            return null;
        } finally {
            call.end();
        }
    }
}
