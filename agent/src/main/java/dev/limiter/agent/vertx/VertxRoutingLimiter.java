package dev.limiter.agent.vertx;

import dev.limiter.agent.http.HttpExchange;
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
public final class VertxRoutingLimiter implements RoutingDelegate {

    /** Per event-loop thread (anonymous class, not a lambda: nothing to spin on the first request). */
    private static final ThreadLocal<HttpExchange> EXCHANGE = new ThreadLocal<>() {
        @Override
        protected HttpExchange initialValue() {
            return new HttpExchange(false); // an event loop never parks
        }
    };

    private final HttpGate gate;

    public VertxRoutingLimiter(HttpGate gate) {
        this.gate = gate;
    }

    /** Puts a Vert.x Web entry over {@code gate} into the bridge: requests are checked from now on. */
    public static void install(HttpGate gate) {
        RoutingBridge.install(new VertxRoutingLimiter(gate));
    }

    @Override
    public boolean onRouting(Object context) {
        RuleSet rules = gate.httpRules();
        if (rules == null) {
            return false;
        }
        RoutingApi api = RoutingApi.of(context);
        return gate.supports(api) && gate.check(rules, api, context, context, EXCHANGE.get()) != null;
    }
}
