package dev.limiter.agent.quarkus;

import dev.limiter.agent.decision.Call;
import dev.limiter.agent.decision.HttpMatches;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/**
 * Per-thread buffers for one Vert.x Web request's decision (an event loop routes many requests, one at a time),
 * reused so that an allowed request for an existing key allocates nothing on the agent's side: the matched rules
 * (kept for the next request of the same method and path), the header writer, and what every decision keeps
 * ({@link Call}). The peer's address text is {@link PeerText}'s, per thread too.
 */
final class RoutingScratch extends Call {

    private final HttpMatches matches = new HttpMatches();

    final RoutingHeaders headers = new RoutingHeaders();

    /** The request being decided: set by {@link #begin}, cleared by {@link #end}. */
    private RuleSet rules;
    private RoutingApi api;
    private Object request;
    private String path;

    /** The rules matching {@code method} and {@code path} into {@link #matched()}; their count. */
    int match(RuleSet rules, String method, String path) {
        return matches.match(rules, method, path);
    }

    /** The rules of the last {@link #match}. */
    Rule[] matched() {
        return matches.rules();
    }

    void begin(RuleSet rules, RoutingApi api, Object request, String path) {
        this.rules = rules;
        this.api = api;
        this.request = request;
        this.path = path;
    }

    /** Drops the request (the matches stay): a thread's buffers never keep a request. */
    void end() {
        rules = null;
        api = null;
        request = null;
        path = null;
        bindingRule = null;
    }

    @Override
    protected String key(Rule rule, int index) throws Throwable {
        return RoutingKeys.key(rule, rules, api, request, path);
    }

    /** A condition's header: the request's first value. */
    @Override
    public String header(String name) throws Throwable {
        return api.header(request, name);
    }

    /** A condition's client address, after the trusted proxies. */
    @Override
    public String clientAddress() throws Throwable {
        return ClientAddress.of(rules.clientIp(), api, request);
    }

    // isUserInRole stays false: no user is authenticated before routing (docs/rules.md)

    @Override
    protected String missingKey(Rule rule, int index) {
        return RoutingKeys.missing(rule);
    }

    @Override
    protected String where() {
        return "";
    }

    @Override
    protected String noun() {
        return "request";
    }
}
