package dev.limiter.agent.outbound.urlconnection;

import dev.limiter.agent.outbound.ClientAdapter;
import dev.limiter.agent.outbound.OutboundApi;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.rules.RuleSet;
import java.net.HttpURLConnection;
import java.net.URL;
import java.util.Collections;
import java.util.Map;
import java.util.WeakHashMap;

/**
 * The {@code HttpURLConnection} adapter of the outbound gate, called from the woven {@code getOutputStream()} and
 * {@code getInputStream()}. A connection is decided once, at the first of them (before anything is written; an
 * explicit {@code connect()} opens only the socket): a call that must wait parks its thread; a rejected one
 * throws {@link dev.limiter.api.OutboundRateLimitException} (an {@code IOException}, as both methods declare), and so
 * does every later call of that connection. The connection's state ({@link ConnectionState}) is kept, weakly, for
 * its later calls: {@code getInputStream} runs several times for one request ({@code getResponseCode} and
 * {@code getHeaderField} call it too).
 */
final class UrlConnectionLimiter extends ClientAdapter implements OutboundApi {

    /** The connections decided, until they are unreachable (identity: the class keeps Object's equals). */
    private final Map<HttpURLConnection, ConnectionState> decided = Collections.synchronizedMap(new WeakHashMap<>());

    UrlConnectionLimiter(OutboundGate gate) {
        super(gate, "HttpURLConnection");
    }

    @Override
    protected Object decide(RuleSet rules, OutboundCall call, Object target, Object unused, Object none,
            Object nothing, boolean async) throws Throwable {
        HttpURLConnection connection = (HttpURLConnection) target;
        ConnectionState state = decided.get(connection);
        if (state != null) {
            return state.enter(connection);
        }
        URL url = connection.getURL();
        call.begin(this, connection, connection.getRequestMethod(), url.getProtocol(), url.getHost(), url.getPort(),
                url.getPath(), false);
        if (!gate.matches(rules, call)) {
            return null;
        }
        int verdict = gate.decide(rules, call);
        state = verdict == OutboundGate.REJECT ? ConnectionState.rejected(OutboundGate.rejection(call))
                : ConnectionState.admitted(connection, call.endToken());
        decided.put(connection, state);
        return state.enter(connection);
    }

    /** A request header as set on the connection (the JDK hides {@code Authorization} and the like). */
    @Override
    public String header(Object connection, String name) {
        return ((HttpURLConnection) connection).getRequestProperty(name);
    }

    /** The response's status, read once its headers are in (the connection is the response). */
    @Override
    public int status(Object connection) throws Throwable {
        return ((HttpURLConnection) connection).getResponseCode();
    }

    @Override
    public String retryAfter(Object connection) {
        return ((HttpURLConnection) connection).getHeaderField("Retry-After");
    }
}
