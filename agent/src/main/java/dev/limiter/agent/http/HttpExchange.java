package dev.limiter.agent.http;

import dev.limiter.agent.decision.Call;
import dev.limiter.agent.decision.HttpMatches;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/**
 * One thread's buffers for the decision of an HTTP request, whatever the server: the matched rules (kept for the
 * next request of the same method and path, {@link HttpMatches}), the peer's address text ({@link PeerCache}), the
 * header writer, and, between {@link #begin} and {@link #end}, the request being decided with its server's
 * {@link HttpServerApi}, through which keys, conditions and the client address are read ({@link HttpKeys}). Reused,
 * so an allowed request for an existing key allocates nothing here.
 *
 * <p>A server whose entry keeps more per thread (a context path cut, a routing context) subclasses it.
 */
public class HttpExchange extends Call {

    private final HttpMatches matches = new HttpMatches();
    private final boolean parks;
    final ResponseHeaders headers = new ResponseHeaders();
    /** The peer texts of this thread's requests (also for a binding that keys outside the gate). */
    public final PeerCache peers = new PeerCache();

    /** The request being decided: set by {@link #begin}, cleared by {@link #end}. */
    protected RuleSet rules;
    protected HttpServerApi api;
    protected Object request;
    protected String path;

    /**
     * {@code parks}: true if this server's threads may wait for a reserved permit before the handler runs (a
     * servlet container's request thread); false for event loops, where a rule that would wait takes a free permit
     * or rejects at once.
     */
    public HttpExchange(boolean parks) {
        this.parks = parks;
    }

    @Override
    protected final boolean parksAfterDecision() {
        return parks;
    }

    /**
     * The path {@code http:} rules match for {@code request}: {@link HttpServerApi#path}; a server whose entry can
     * keep it per thread (the same path over and over) overrides this.
     */
    protected String rulePath(HttpServerApi api, Object request) throws Throwable {
        return api.path(request);
    }

    /** The rules matching {@code method} and {@code path} into {@link #matched()}; their count. */
    public final int match(RuleSet rules, String method, String path) {
        return matches.match(rules, method, path);
    }

    /** The rules of the last {@link #match}. */
    public final Rule[] matched() {
        return matches.rules();
    }

    final void begin(RuleSet rules, HttpServerApi api, Object request, String path) {
        this.rules = rules;
        this.api = api;
        this.request = request;
        this.path = path;
    }

    /** Drops the request (the matches stay): a thread's buffers never keep a request alive. */
    public void end() {
        rules = null;
        api = null;
        request = null;
        path = null;
        bindingRule = null;
    }

    @Override
    protected final String key(Rule rule, int index) throws Throwable {
        return HttpKeys.key(rule, rules, api, request, path, peers);
    }

    /** A condition's header: the request's first value. */
    @Override
    public final String header(String name) throws Throwable {
        return api.header(request, name);
    }

    /** A condition's client address, after the trusted proxies. */
    @Override
    public final String clientAddress() throws Throwable {
        return ClientAddress.of(rules.clientIp(), api, request, peers);
    }

    /** A condition's role: never held where the server has no user yet. */
    @Override
    public final boolean isUserInRole(String role) throws Throwable {
        return !api.lacks(RequestView.NO_PRINCIPAL) && api.isUserInRole(request, role);
    }

    @Override
    protected final String missingKey(Rule rule, int index) {
        return HttpKeys.missing(rule, api);
    }

    @Override
    protected final String where() {
        return "";
    }

    @Override
    protected final String noun() {
        return "request";
    }
}
