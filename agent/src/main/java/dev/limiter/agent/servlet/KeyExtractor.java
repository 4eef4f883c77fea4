package dev.limiter.agent.servlet;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.ClientIpResolver;
import dev.limiter.rules.key.KeySpec;

/**
 * Turns a rule's {@link KeySpec} into the key string of one servlet request.
 *
 * <p>A missing value (no such header or parameter, no authenticated user) is not a reason to skip the limit:
 * all requests without the value share one budget, the key {@value #MISSING}. Otherwise a client could escape
 * a per-API-key limit by sending no key. {@code param:} reads {@code getParameter}, which for form posts makes
 * the container parse the body (documented in docs/agent.md).
 */
final class KeyExtractor {

    static final String MISSING = "";

    private KeyExtractor() {
    }

    static String key(Rule rule, RuleSet rules, ServletApi api, Object request, String path) throws Throwable {
        KeySpec spec = rule.key();
        String value = switch (spec.kind()) {
            case GLOBAL, ARG, METADATA -> MISSING; // metadata: gRPC rules only (KeySection)
            case IP -> clientIp(rules.clientIp(), api, request);
            case HEADER -> api.header(request, spec.name());
            case PARAM -> parameter(api, request, spec.name());
            case PRINCIPAL -> api.principal(request);
            case PATH -> path;
            case PATH_PARAM -> rule.pathParam(path);
        };
        return value == null ? MISSING : value;
    }

    /**
     * The parameter, or null (the missing-value key) when the container refuses to parse the request's
     * parameters: Tomcat throws beyond {@code maxParameterCount} (1,000 by default, query and form together),
     * Jetty beyond its form-key limit or on a malformed form. That is the client's malformed request, not the
     * limiter failing: counted under the rule's {@code on-error}, {@code allow} by default, it would let any client
     * past a {@code param:} limit by sending 1,001 parameters. So such a request counts where a request without
     * the parameter counts.
     */
    private static String parameter(ServletApi api, Object request, String name) throws Throwable {
        try {
            return api.parameter(request, name);
        } catch (RuntimeException refused) {
            return null;
        }
    }

    /** The client's key: its address, an IPv6 client by its network ({@link ClientIpResolver#key}). */
    private static String clientIp(ClientIpResolver resolver, ServletApi api, Object request) throws Throwable {
        return resolver.key(clientAddress(resolver, api, request));
    }

    /**
     * The peer address, unless the peer is a trusted proxy: only then are the forwarding headers read, every
     * line of them (a proxy may add its own line after the client's), so a client cannot choose its address.
     */
    static String clientAddress(ClientIpResolver resolver, ServletApi api, Object request) throws Throwable {
        String peer = api.remoteAddr(request);
        if (peer == null || !resolver.isTrusted(peer)) {
            return peer;
        }
        return resolver.resolve(peer, api.headerLines(request, "X-Forwarded-For"),
                api.headerLines(request, "Forwarded"));
    }
}
