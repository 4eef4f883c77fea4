package dev.limiter.agent.helidon;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.entry.EntryWiring;
import dev.limiter.bootstrap.HandlerBridge;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Helidon 4 SE WebServer: {@code HttpRoutingImpl.route(ConnectionContext, RoutingRequest, RoutingResponse)}, that one
 * class only, which the HTTP/1.1 connection and every HTTP/2 stream call once per request, on the request's own
 * virtual thread, before the routing's filters, features and handlers, and which returns when the response is
 * done.
 */
public final class HelidonEntryPoint extends EntryPoint {

    public static final EntryTarget ROUTE = EntryTarget.exactClass("helidon-webserver",
            "io/helidon/webserver/http/HttpRoutingImpl", "route", Opcodes.ACC_PUBLIC, AdviceShape.HANDLER,
            "(Lio/helidon/webserver/ConnectionContext;Lio/helidon/webserver/http/RoutingRequest;"
                    + "Lio/helidon/webserver/http/RoutingResponse;)V",
            "dev/limiter/bootstrap/HandlerBridge");

    public HelidonEntryPoint() {
        super(ROUTE);
    }

    @Override
    public void install(EntryWiring wiring) {
        HandlerBridge.install(new HelidonLimiter(wiring.http()));
    }
}
