package dev.limiter.agent.vertx;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.entry.EntryWiring;
import dev.limiter.bootstrap.RoutingBridge;

/**
 * Vert.x Web (Quarkus, any Vert.x Web application): {@code RoutingContextImpl.route()} (package-private), which
 * {@code RouterImpl.handle(HttpServerRequest)} calls once per request on the root router's new context, before any
 * route handler; a mounted sub-router gets a wrapper context, not this call.
 */
public final class VertxWebEntryPoint extends EntryPoint {

    public static final EntryTarget ROUTE = EntryTarget.exactClass("vertx-web", "io/vertx/ext/web/impl/RoutingContextImpl",
            "route", 0, AdviceShape.ROUTING, "()V", null);

    public VertxWebEntryPoint() {
        super(ROUTE);
    }

    @Override
    public void install(EntryWiring wiring) {
        RoutingBridge.install(new VertxRoutingLimiter(wiring.http()));
    }
}
