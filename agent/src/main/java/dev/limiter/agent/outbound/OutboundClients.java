package dev.limiter.agent.outbound;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.bootstrap.ClientDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import java.util.Arrays;

/**
 * The one delegate of the client bridge: every HTTP client's adapter is registered here and found by the class of
 * the client object a woven call method runs on (once per class). What follows a call's start is the same for
 * every client: the token an adapter held ({@link OutboundCallEnd}) is told the call's result, a response or a
 * future of one, or that the call threw.
 */
public final class OutboundClients implements ClientDelegate {

    /** One HTTP client's adapter of the outbound gate. */
    public interface Adapter {

        /** True if this adapter serves clients of {@code type} (the class whose woven method runs). */
        boolean adapts(Class<?> type);

        /** {@link ClientDelegate#onCallStart}, for a client this adapter serves. */
        Object onCallStart(Object client, Object request, Object handler, Object push, boolean async);
    }

    /** No adapter serves a class: its calls run untouched. */
    private static final Adapter NONE = new Adapter() {
        @Override
        public boolean adapts(Class<?> type) {
            return false;
        }

        @Override
        public Object onCallStart(Object client, Object request, Object handler, Object push, boolean async) {
            return null;
        }
    };

    private volatile Adapter[] adapters = new Adapter[0];
    private final ThrottledLog log;

    /** The adapter of each client class (anonymous class, not a lambda: nothing to spin on the first call). */
    private final ClassValue<Adapter> byClass = new ClassValue<>() {
        @Override
        protected Adapter computeValue(Class<?> type) {
            for (Adapter adapter : adapters) {
                if (adapter.adapts(type)) {
                    return adapter;
                }
            }
            return NONE;
        }
    };

    private OutboundClients(ThrottledLog log) {
        this.log = log;
    }

    /** A new registry, installed into the client bridge: outgoing calls are checked from now on. */
    public static OutboundClients install(ThrottledLog log) {
        OutboundClients clients = new OutboundClients(log);
        ClientBridge.install(clients);
        return clients;
    }

    /** Registers {@code adapter}; at start-up, before the first call is decided. */
    public void add(Adapter adapter) {
        Adapter[] more = Arrays.copyOf(adapters, adapters.length + 1);
        more[adapters.length] = adapter;
        adapters = more;
    }

    @Override
    public Object onCallStart(Object client, Object request, Object handler, Object push, boolean async) {
        return client == null ? null : byClass.get(client.getClass()).onCallStart(client, request, handler, push,
                async);
    }

    /** The call returned: a blocking call's response has come; an asynchronous call's future will. */
    @Override
    public Object onExchangeReturn(Object result, Object token) {
        OutboundCallEnd end = (OutboundCallEnd) token;
        try {
            end.returned(result);
        } catch (Throwable t) {
            end.accept(null, t);
            LimiterBridge.countInternalError();
            log.warn("limiter: could not wait for the end of an outgoing call; its permits are released now", t);
        }
        return result;
    }

    @Override
    public void onExchangeFailed(Object token) {
        ((OutboundCallEnd) token).accept(null, null);
    }
}
