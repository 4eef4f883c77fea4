package dev.limiter.agent.outbound.urlconnection;

import dev.limiter.agent.entry.AdviceShape;
import dev.limiter.agent.entry.ClientEntryPoint;
import dev.limiter.agent.entry.EntryTarget;
import dev.limiter.agent.outbound.OutboundClients;
import dev.limiter.agent.outbound.OutboundGate;
import java.net.HttpURLConnection;
import net.bytebuddy.jar.asm.Opcodes;

/**
 * The JDK's {@code HttpURLConnection} (what a plain {@code RestTemplate}, {@code URL.openStream()} and many SDKs
 * use): {@code getOutputStream()} and {@code getInputStream()} of its one implementation,
 * {@code sun.net.www.protocol.http.HttpURLConnection} (HTTPS connections delegate to a subclass of it), the two
 * calls before which no request is written. Every other way to a response ({@code getResponseCode},
 * {@code getHeaderField}) goes through {@code getInputStream}.
 */
public final class UrlConnectionEntryPoint extends ClientEntryPoint {

    public static final EntryTarget STREAMS = EntryTarget.exactJdkClass("url-connection", "java.base",
            "sun/net/www/protocol/http/HttpURLConnection", new String[] {"getInputStream", "getOutputStream"},
            Opcodes.ACC_PUBLIC, AdviceShape.CLIENT_CALL, "()", BRIDGE);

    public UrlConnectionEntryPoint() {
        super(STREAMS);
    }

    @Override
    public boolean adapts(Class<?> type) {
        return HttpURLConnection.class.isAssignableFrom(type);
    }

    @Override
    protected OutboundClients.Adapter adapter(OutboundGate gate) {
        return new UrlConnectionLimiter(gate);
    }
}
