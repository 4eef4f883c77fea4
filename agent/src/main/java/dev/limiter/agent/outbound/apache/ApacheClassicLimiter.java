package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.http.FirstRequest;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundCallEnd;
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
final class ApacheClassicLimiter implements OutboundClients.Adapter, OutboundCallEnd.Answers {

    private final OutboundGate gate;
    private final ThrottledLog log;

    ApacheClassicLimiter(OutboundGate gate, ThrottledLog log) {
        this.gate = gate;
        this.log = log;
    }

    @Override
    public Object onCallStart(Object client, Object target, Object request, Object context, boolean async) {
        RuleSet rules = gate.rules();
        if (rules.maxClientMatches() == 0 || request == null) {
            return null;
        }
        FirstRequest.seen();
        ApacheApi api = ApacheApi.of(client);
        if (api.problem != null) {
            if (!api.problemSaid) {
                api.problemSaid = true;
                log.warn("limiter: this Apache HttpClient is not supported; its calls run unlimited", api.problem);
            }
            return null;
        }
        OutboundCall call = gate.call();
        try {
            call.begin(api, request, api.method(request), api.scheme(target, request), api.host(target, request),
                    api.port(target, request), api.path(request), false);
            switch (gate.decide(rules, call, this)) {
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
            log.warn("limiter: could not read an Apache HttpClient request; it is sent unchecked", t);
            return null;
        } finally {
            call.end();
        }
    }

    @Override
    public int status(Object response) {
        try {
            return ApacheApi.of(response).status(response);
        } catch (Throwable t) {
            return 0;
        }
    }

    @Override
    public String retryAfter(Object response) {
        try {
            return ApacheApi.of(response).header(response, "Retry-After");
        } catch (Throwable t) {
            return null;
        }
    }
}
