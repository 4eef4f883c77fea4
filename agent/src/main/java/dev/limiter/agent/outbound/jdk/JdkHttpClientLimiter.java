package dev.limiter.agent.outbound.jdk;

import dev.limiter.agent.outbound.OutboundApi;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.rules.RuleSet;
import java.net.URI;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The {@code java.net.http.HttpClient} adapter of the outbound gate, called from the woven {@code send} and
 * {@code sendAsync} through {@link ClientBridge} and {@link OutboundClients}. A blocking {@code send} that must wait
 * parks its thread in the gate; a rejected one throws {@link dev.limiter.api.OutboundRateLimitException}. An
 * asynchronous call is never parked: rejected, its future fails with that exception; made to wait, it is sent
 * later by {@link DelayedSend} and its future completes then. Nothing is sent before the decision.
 */
final class JdkHttpClientLimiter implements OutboundClients.Adapter, OutboundApi {

    private final OutboundGate gate;

    JdkHttpClientLimiter(OutboundGate gate) {
        this.gate = gate;
    }


    @Override
    public Object onCallStart(Object client, Object request, Object handler, Object push, boolean async) {
        RuleSet rules = gate.clientRules();
        if (rules == null || !(request instanceof HttpRequest)) {
            return null;
        }
        HttpRequest outgoing = (HttpRequest) request;
        URI uri = outgoing.uri();
        OutboundCall call = gate.call();
        call.begin(this, request, outgoing.method(), uri.getScheme(), uri.getHost(), uri.getPort(), uri.getPath(),
                async);
        try {
            switch (gate.decide(rules, call)) {
                case OutboundGate.REJECT:
                    Throwable rejection = OutboundGate.rejection(call);
                    return async ? CompletableFuture.failedFuture(rejection) : rejection;
                case OutboundGate.DELAY:
                    return DelayedSend.schedule(client, outgoing, handler, push, call.delayNanos(), call.delayed(),
                            call.endToken());
                default:
                    if (call.endToken() != null) {
                        ClientBridge.hold(call.endToken());
                    }
                    return null;
            }
        } finally {
            call.end();
        }
    }

    @Override
    public String header(Object request, String name) {
        List<String> values = ((HttpRequest) request).headers().map().get(name);
        return values == null || values.isEmpty() ? null : values.get(0);
    }

    @Override
    public int status(Object response) {
        return ((HttpResponse<?>) response).statusCode();
    }

    @Override
    public String retryAfter(Object response) {
        return ((HttpResponse<?>) response).headers().firstValue("Retry-After").orElse(null);
    }
}
