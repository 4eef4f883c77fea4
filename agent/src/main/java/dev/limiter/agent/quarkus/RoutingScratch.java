package dev.limiter.agent.quarkus;

import dev.limiter.agent.decision.HttpCall;
import dev.limiter.rules.Rule;

/**
 * Per-thread buffers for one Vert.x Web request's decision (an event loop routes many requests, one at a time),
 * reused so that an allowed request for an existing key allocates nothing on the agent's side: the matched rules
 * (kept for the next request of the same method and path), the header writer, and what every decision keeps
 * ({@link HttpCall}). The peer's address text is {@link PeerText}'s, per thread too.
 */
final class RoutingScratch extends HttpCall<RoutingApi> {

    final RoutingHeaders headers = new RoutingHeaders();

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
