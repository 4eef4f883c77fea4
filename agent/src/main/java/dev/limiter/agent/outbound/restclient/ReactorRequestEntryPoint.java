package dev.limiter.agent.outbound.restclient;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.ClientEntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Spring's blocking {@code RestClient} and {@code RestTemplate} on Reactor Netty (Spring 6.1+,
 * {@code ReactorClientHttpRequestFactory}: what Spring Boot picks when Reactor Netty is the HTTP client on the class
 * path, as in a WebFlux application): {@code ReactorClientHttpRequest.executeInternal(HttpHeaders, Body)}, which
 * every request of such a factory runs once. The other factories' requests are seen in the client under them
 * (Apache HttpClient, the JDK client, {@code HttpURLConnection}).
 */
public final class ReactorRequestEntryPoint extends ClientEntryPoint {

    private static final String REQUEST = "org/springframework/http/client/ReactorClientHttpRequest";

    public static final EntryTarget EXECUTE = EntryTarget.exactClass("spring-reactor-request", REQUEST,
            new String[] {"executeInternal"}, Opcodes.ACC_PROTECTED, AdviceShape.CLIENT_CALL,
            "(Lorg/springframework/http/HttpHeaders;Lorg/springframework/http/StreamingHttpOutputMessage$Body;)",
            BRIDGE);

    public ReactorRequestEntryPoint() {
        super(EXECUTE);
    }

    @Override
    protected OutboundClients.Adapter adapter(OutboundGate gate) {
        return new ReactorRequestLimiter(gate);
    }
}
