package dev.limiter.agent.outbound.jdk;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.ClientEntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The JDK's {@code java.net.http.HttpClient}: {@code send} and both {@code sendAsync} of its one implementation
 * ({@code jdk.internal.net.http.HttpClientFacade}, what {@code HttpClient.newHttpClient()} and its builder return,
 * the same class on Java 17 to 25). Every call of the client goes through one of them once; the implementation
 * behind the facade calls none of them again.
 */
public final class JdkHttpClientEntryPoint extends ClientEntryPoint {

    private static final String MODULE = "java.net.http";
    private static final String FACADE = "jdk/internal/net/http/HttpClientFacade";
    private static final String REQUEST_AND_HANDLER = "(Ljava/net/http/HttpRequest;Ljava/net/http/HttpResponse$BodyHandler;";

    /** {@code send(request, handler)}, {@code sendAsync(request, handler)} and its overload with a push handler. */
    public static final EntryTarget SEND = EntryTarget.exactJdkClass("jdk-http-client", MODULE, FACADE,
            new String[] {"send", "sendAsync"}, Opcodes.ACC_PUBLIC, AdviceShape.CLIENT_CALL, REQUEST_AND_HANDLER,
            BRIDGE);

    public JdkHttpClientEntryPoint() {
        super(SEND);
    }

    /** The JDK's implementation of {@code HttpClient} (or any subclass the application wrote: its calls too). */
    @Override
    public boolean adapts(Class<?> type) {
        return java.net.http.HttpClient.class.isAssignableFrom(type);
    }

    @Override
    protected OutboundClients.Adapter adapter(OutboundGate gate) {
        return new JdkHttpClientLimiter(gate);
    }
}
