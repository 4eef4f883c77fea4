package dev.limiter.agent.outbound.webclient;

import dev.limiter.agent.outbound.ClientAdapter;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.rules.RuleSet;

/**
 * The {@code WebClient} adapter of the outbound gate, called from the woven {@code exchange(request)} when the
 * exchange is assembled. Nothing is decided then: the request goes out when the returned {@code Mono} is
 * subscribed, maybe later, maybe several times (a retry). A request some rule may limit has its {@code Mono}
 * wrapped ({@link DeferredExchange}) so each subscription is decided; any other is left untouched, and so is every
 * request of a connector whose client the agent weaves itself (the JDK client, Apache's async client), decided
 * there once.
 */
final class WebClientLimiter extends ClientAdapter {

    WebClientLimiter(OutboundGate gate) {
        super(gate, "Spring WebClient");
    }

    /** {@code exchange(request)} of the exchange {@code function}. */
    @Override
    protected Object decide(RuleSet rules, OutboundCall call, Object function, Object request, Object unused,
            Object none, boolean async) throws Throwable {
        if (request == null) {
            return null;
        }
        WebClientApi api = WebClientApi.of(request);
        if (!usable(api) || api.decidedBelow(function)) {
            return null;
        }
        api.begin(call, request);
        if (gate.matches(rules, call)) {
            ClientBridge.hold(new DeferredExchange(gate, api, request));
        }
        return null;
    }
}
