package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.ClientEntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Apache HttpClient 5's classic (blocking) client: {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)} of
 * every {@code CloseableHttpClient} (the builder's {@code InternalHttpClient}, {@code MinimalHttpClient}), which
 * every {@code execute} overload, response handlers included, calls once per request; Spring's
 * {@code RestTemplate} and {@code RestClient} over {@code HttpComponentsClientHttpRequestFactory} go through it.
 */
public final class ApacheClassicEntryPoint extends ClientEntryPoint {

    private static final String CLIENT = "org/apache/hc/client5/http/impl/classic/CloseableHttpClient";

    public static final EntryTarget DO_EXECUTE = EntryTarget.implementations("apache-classic",
            new String[] {CLIENT}, CLIENT + ".class", new String[] {"doExecute"}, Opcodes.ACC_PROTECTED,
            Opcodes.ACC_STATIC, AdviceShape.CLIENT_CALL, "(Lorg/apache/hc/core5/http/HttpHost;"
                    + "Lorg/apache/hc/core5/http/ClassicHttpRequest;Lorg/apache/hc/core5/http/protocol/HttpContext;)"
                    + "L" + CLIENT.replace("CloseableHttpClient", "CloseableHttpResponse") + ";",
            BRIDGE);

    public ApacheClassicEntryPoint() {
        super(DO_EXECUTE);
    }

    /** A subclass of {@code CloseableHttpClient}, by name: the agent's loader cannot see the library. */
    @Override
    public boolean adapts(Class<?> type) {
        return extendsClass(type, CLIENT.replace('/', '.'));
    }

    @Override
    protected OutboundClients.Adapter adapter(OutboundGate gate) {
        return new ApacheClassicLimiter(gate);
    }
}
