package dev.limiter.agent.outbound;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.bootstrap.ClientDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.ReloadListener;
import dev.limiter.rules.reload.RuleSetHolder;
import java.util.Arrays;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The one delegate of the client bridge: every HTTP client's kind is registered here and found by the class of
 * the client object a woven call method runs on (once per class); its adapter is made at the first call of such a
 * client, so a service that calls none loads none of the adapters' classes. What follows a call's start is the same for
 * every client: the token an adapter held ({@link OutboundCallEnd}) is told the call's result, a response or a
 * future of one, or that the call threw.
 */
public final class OutboundClients implements ClientDelegate, ReloadListener {

    /** One HTTP client's adapter of the outbound gate. */
    public interface Adapter {

        /** {@link ClientDelegate#onCallStart}, for a client this adapter serves. */
        Object onCallStart(Object client, Object request, Object handler, Object push, boolean async);
    }

    /** One kind of HTTP client: which classes are its clients, and how its adapter is made. */
    public interface Kind {

        /** True if clients of {@code type} (the class whose woven method runs) are of this kind. */
        boolean adapts(Class<?> type);

        /** The adapter of this kind's clients, made once, at the first call of one. */
        Adapter adapter(RuleSetHolder holder, ThrottledLog log);
    }

    /** No adapter serves a class: its calls run untouched. */
    private static final Adapter NONE = new Adapter() {
        @Override
        public Object onCallStart(Object client, Object request, Object handler, Object push, boolean async) {
            return null;
        }
    };

    private volatile Kind[] kinds = new Kind[0];
    private final Map<Kind, Adapter> adapters = new ConcurrentHashMap<>();
    private final RuleSetHolder holder;
    private final ThrottledLog log;

    /** The adapter of each client class (anonymous class, not a lambda: nothing to spin on the first call). */
    private final ClassValue<Adapter> byClass = new ClassValue<>() {
        @Override
        protected Adapter computeValue(Class<?> type) {
            for (Kind kind : kinds) {
                if (kind.adapts(type)) {
                    return adapters.computeIfAbsent(kind, made -> made.adapter(holder, log));
                }
            }
            return NONE;
        }
    };

    private OutboundClients(RuleSetHolder holder, ThrottledLog log) {
        this.holder = holder;
        this.log = log;
    }

    /** A new registry over {@code holder}'s rules, not installed yet: its kinds are added first. */
    public static OutboundClients over(RuleSetHolder holder, ThrottledLog log) {
        return new OutboundClients(holder, log);
    }

    /**
     * Puts this registry into the client bridge once every kind is in: calls are checked from now on. Installed
     * earlier, a call in between would find its class's kind missing, and that answer is kept for the class.
     */
    public void install() {
        ClientBridge.clientRules(holder.current().maxClientMatches() > 0);
        holder.addListener(this);
        ClientBridge.install(this);
    }

    /** Tells the bridge whether any call may be decided now ({@link ClientBridge#deciding}). */
    @Override
    public void reloaded(RuleSet previous, RuleSet current) {
        ClientBridge.clientRules(current.maxClientMatches() > 0);
    }

    /** Registers {@code kind}; at start-up, before the first call is decided. */
    public void add(Kind kind) {
        Kind[] more = Arrays.copyOf(kinds, kinds.length + 1);
        more[kinds.length] = kind;
        kinds = more;
    }

    @Override
    public Object onCallStart(Object client, Object request, Object handler, Object push, boolean async) {
        return client == null ? null : byClass.get(client.getClass()).onCallStart(client, request, handler, push,
                async);
    }

    /** The call returned: a blocking call's response has come; an asynchronous call's future will. */
    @Override
    public Object onExchangeReturn(Object result, Object token) {
        CallHold hold = (CallHold) token;
        try {
            return hold.returned(result);
        } catch (Throwable t) {
            hold.threw();
            LimiterBridge.countInternalError();
            log.warn(Warning.RELEASE,
                    "limiter: could not wait for the end of an outgoing call; its permits are released now", t);
            return result;
        }
    }

    @Override
    public void onExchangeFailed(Object token) {
        ((CallHold) token).threw();
    }
}
