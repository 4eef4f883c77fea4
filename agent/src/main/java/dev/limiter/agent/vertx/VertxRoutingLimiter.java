package dev.limiter.agent.vertx;

import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpEntry;
import dev.limiter.agent.http.HttpGate;
import dev.limiter.bootstrap.RoutingBridge;
import dev.limiter.bootstrap.RoutingDelegate;
import dev.limiter.rules.RuleSet;

/**
 * The Vert.x Web entry (Quarkus and any Vert.x Web 4.5 or 5 application): the woven {@code RoutingContextImpl.route()}
 * calls it through {@link RoutingBridge} on the event loop, once per request before any route handler, and it hands
 * the routing context to the {@link HttpGate} through {@link RoutingApi}: a rejection is written and routing stops.
 * A request that then reaches a woven resource method is checked again there by its {@code jaxrs:} rules: separate
 * rules, each counted once.
 */
public final class VertxRoutingLimiter extends HttpEntry<RoutingApi, HttpExchange> implements RoutingDelegate {

    public VertxRoutingLimiter(HttpGate gate) {
        super(gate);
    }

    @Override
    public boolean onRouting(Object context) {
        return enter(context, context) != null;
    }

    @Override
    protected RoutingApi binding(Object context) {
        return RoutingApi.of(context);
    }

    @Override
    protected HttpExchange newExchange() {
        return new HttpExchange(false); // an event loop never parks
    }

    @Override
    protected Object decide(RuleSet rules, RoutingApi api, Object context, Object same, HttpExchange exchange) {
        return gate.check(rules, api, context, context, exchange);
    }
}
