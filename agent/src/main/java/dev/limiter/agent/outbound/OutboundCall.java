package dev.limiter.agent.outbound;

import dev.limiter.agent.decision.Call;
import dev.limiter.agent.decision.Reservations;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeySpec;

/**
 * Per-thread buffers for one outgoing call's decision, reused so that an allowed call for an existing key
 * allocates nothing on the agent's side: the call's method and URI parts (set by the client's adapter), the
 * rules it matched, and what the gate leaves for the adapter (the token to hold, the delay of an asynchronous
 * call). An outgoing call has a host, a path and headers; no client address or user.
 */
public final class OutboundCall extends Call {

    /** The key of a rule keyed on a header the request does not carry: such calls share one budget. */
    static final String MISSING = "";

    Rule[] matched = new Rule[4];
    int count;

    private OutboundApi api;
    private Object request;
    String method;
    String scheme;
    String host;
    int port;
    String path;
    boolean async;

    /** What the gate decided beyond send or reject: set by {@link OutboundGate#decide}. */
    OutboundCallEnd end;
    /** How long an asynchronous call is delayed ({@link OutboundGate#DELAY}). */
    long delayNanos;
    /** The delayed call's reserved permits, or null when it waits out a pause and is decided again then. */
    Reservations delayed;

    /** The client's API the call was begun with. */
    OutboundApi api() {
        return api;
    }

    /**
     * Sets up the call to decide: {@code port} is the URI's, -1 if it names none; {@code path} its decoded path.
     */
    public void begin(OutboundApi api, Object request, String method, String scheme, String host, int port,
            String path, boolean async) {
        this.api = api;
        this.request = request;
        this.method = method;
        this.scheme = scheme;
        this.host = host;
        this.port = port;
        this.path = path == null || path.isEmpty() ? "/" : path;
        this.async = async;
        this.end = null;
        this.delayNanos = 0;
        this.delayed = null;
    }

    /** Drops the call: a thread's buffers never keep a request (the matched rules stay until the next match). */
    public void end() {
        api = null;
        request = null;
        end = null;
        delayed = null;
        bindingRule = null;
        pausedRule = null;
        pausedKey = null;
    }

    /** The token the adapter holds until the call ends, or null if nothing waits for its end. */
    public OutboundCallEnd endToken() {
        return end;
    }

    /** How long the asynchronous call is delayed. */
    public long delayNanos() {
        return delayNanos;
    }

    /** The delayed call's reservations, or null if it is decided again after the delay. */
    public Reservations delayed() {
        return delayed;
    }

    void match(RuleSet rules) {
        if (matched.length < rules.maxClientMatches()) {
            matched = new Rule[rules.maxClientMatches()];
        }
        count = rules.matchClient(method, scheme, host, port, path, matched);
    }

    @Override
    protected String key(Rule rule, int index) throws Throwable {
        KeySpec key = rule.key();
        switch (key.kind()) {
            case HOST:
                return host;
            case PATH:
                return path;
            case HEADER:
                String value = api.header(request, key.name());
                return value == null ? MISSING : value;
            default:
                return MISSING; // global; the rules allow no other kind here
        }
    }

    /** A condition's header: the outgoing request's. */
    @Override
    public String header(String name) throws Throwable {
        return api.header(request, name);
    }

    @Override
    protected boolean parksAfterDecision() {
        return !async;
    }

    @Override
    protected boolean delaysWithoutThread() {
        return async;
    }

    @Override
    protected String missingKey(Rule rule, int index) {
        return "limiter: rule " + rule.id() + " found no key for an outgoing call to " + host;
    }

    @Override
    protected String where() {
        return " to " + host;
    }

    @Override
    protected String noun() {
        return "outgoing call";
    }
}
