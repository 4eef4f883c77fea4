package dev.limiter.agent.outbound.apache;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.ClientEntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * Apache HttpClient 5, both clients:
 * <ul>
 *   <li>classic (blocking): {@code doExecute(HttpHost, ClassicHttpRequest, HttpContext)} of every
 *       {@code CloseableHttpClient} (the builder's {@code InternalHttpClient}, {@code MinimalHttpClient}), which
 *       every {@code execute} overload, response handlers included, calls once per request; Spring's
 *       {@code RestTemplate} and {@code RestClient} over {@code HttpComponentsClientHttpRequestFactory} go through
 *       it;</li>
 *   <li>async: {@code executeImmediate(request, entityProducer, scope, chain, callback)} of the async clients' base
 *       class (the builder's {@code InternalHttpAsyncClient}, {@code MinimalHttpAsyncClient}), the step every
 *       attempt of an exchange starts with, its request known and nothing sent; every {@code execute} overload (and
 *       Spring's {@code HttpComponentsClientHttpConnector}) comes through it.</li>
 * </ul>
 */
public final class ApacheEntryPoint extends ClientEntryPoint {

    private static final String CLASSIC = "org/apache/hc/client5/http/impl/classic/CloseableHttpClient";
    private static final String ASYNC = "org/apache/hc/client5/http/impl/async/InternalAbstractHttpAsyncClient";

    public static final EntryTarget DO_EXECUTE = EntryTarget.implementations("apache-classic",
            new String[] {CLASSIC}, CLASSIC + ".class", new String[] {"doExecute"}, Opcodes.ACC_PROTECTED,
            Opcodes.ACC_STATIC, AdviceShape.CLIENT_CALL, "(Lorg/apache/hc/core5/http/HttpHost;"
                    + "Lorg/apache/hc/core5/http/ClassicHttpRequest;Lorg/apache/hc/core5/http/protocol/HttpContext;)"
                    + "L" + CLASSIC.replace("CloseableHttpClient", "CloseableHttpResponse") + ";",
            BRIDGE);

    public static final EntryTarget EXECUTE_IMMEDIATE = EntryTarget.exactClass("apache-async", ASYNC,
            new String[] {"executeImmediate"}, 0, AdviceShape.CLIENT_CALL, "(Lorg/apache/hc/core5/http/HttpRequest;"
                    + "Lorg/apache/hc/core5/http/nio/AsyncEntityProducer;"
                    + "Lorg/apache/hc/client5/http/async/AsyncExecChain$Scope;"
                    + "Lorg/apache/hc/client5/http/async/AsyncExecChain;"
                    + "Lorg/apache/hc/client5/http/async/AsyncExecCallback;)V", BRIDGE);

    public ApacheEntryPoint() {
        super(DO_EXECUTE, EXECUTE_IMMEDIATE);
    }

    /** A subclass of either client's base class, by name: the agent's loader cannot see the library. */
    @Override
    public boolean adapts(Class<?> type) {
        return extendsClass(type, CLASSIC.replace('/', '.')) || extendsClass(type, ASYNC.replace('/', '.'));
    }

    /** The classic client's calls are blocking, the async client's step is not: each goes to its own adapter. */
    @Override
    protected OutboundClients.Adapter adapter(OutboundGate gate) {
        return new ApacheAdapters(new ApacheClassicLimiter(gate), new ApacheAsyncLimiter(gate));
    }
}
