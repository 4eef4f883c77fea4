package dev.limiter.agent.outbound.jdk;

import dev.limiter.agent.outbound.OutboundApi;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.ClientAdapter;
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
final class JdkHttpClientLimiter extends ClientAdapter implements OutboundApi {

    JdkHttpClientLimiter(OutboundGate gate) {
        super(gate, "java.net.http.HttpClient");
    }

    /** {@code send(request, handler)} or {@code sendAsync(request, handler[, push])} of {@code client}. */
    @Override
    protected Object decide(RuleSet rules, OutboundCall call, Object client, Object request, Object handler,
            Object push, boolean async) {
        if (!(request instanceof HttpRequest outgoing)) {
            return null;
        }
        URI uri = outgoing.uri();
        call.begin(this, request, outgoing.method(), uri.getScheme(), uri.getHost(), uri.getPort(), uri.getPath(),
                async);
        int verdict = gate.decide(rules, call);
        if (verdict == OutboundGate.DELAY) {
            return DelayedSend.schedule(client, outgoing, handler, push, call.delayNanos(), call.delayed(),
                    call.endToken());
        }
        Object answer = OutboundGate.answerBlocking(call, verdict);
        return async && answer != null ? CompletableFuture.failedFuture((Throwable) answer) : answer;
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
