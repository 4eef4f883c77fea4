package dev.limiter.agent.outbound.webclient;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.ClientEntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Spring's {@code WebClient} (Spring 6 and 7), on any connector (Reactor Netty, Jetty, Apache's async client, the
 * JDK client): {@code ExchangeFunctions.DefaultExchangeFunction.exchange(ClientRequest)}, the innermost exchange
 * function, which every request of a {@code WebClient} goes through once, after its filters (a retrying filter's
 * every attempt too). It returns the lazy {@code Mono} of the response: the request is sent when that is subscribed.
 */
public final class WebClientEntryPoint extends ClientEntryPoint {

    private static final String FUNCTION =
            "org/springframework/web/reactive/function/client/ExchangeFunctions$DefaultExchangeFunction";

    public static final EntryTarget EXCHANGE = EntryTarget.exactClass("webclient", FUNCTION,
            new String[] {"exchange"}, Opcodes.ACC_PUBLIC, AdviceShape.CLIENT_CALL,
            "(Lorg/springframework/web/reactive/function/client/ClientRequest;)Lreactor/core/publisher/Mono;", BRIDGE);

    public WebClientEntryPoint() {
        super(EXCHANGE);
    }

    @Override
    protected OutboundClients.Adapter adapter(OutboundGate gate) {
        return new WebClientLimiter(gate);
    }
}
