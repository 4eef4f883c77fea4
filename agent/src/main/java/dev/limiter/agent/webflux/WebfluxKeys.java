package dev.limiter.agent.webflux;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.ClientIpResolver;
import dev.limiter.rules.key.KeySpec;
import java.net.InetSocketAddress;

/**
 * Turns a rule's {@link KeySpec} into the key of one WebFlux exchange, as the servlet adapter does for a servlet
 * request: a missing header or parameter counts under the shared key {@value #MISSING}, so sending no key is no
 * escape. Two differences, both from what a reactive server has before its handler runs:
 * <ul>
 *   <li>{@code param:} reads the query string only ({@code getQueryParams()}); the body is never read here.</li>
 *   <li>{@code principal} has no value: Spring Security supplies the principal through the exchange, later and
 *       reactively ({@code ServerWebExchange.getPrincipal()} is a {@code Mono}). The key is missing, so the rule
 *       fails and its {@code on-error} decides (docs/agent.md).</li>
 * </ul>
 */
final class WebfluxKeys {

    static final String MISSING = "";

    private WebfluxKeys() {
    }

    /** The key, or null when it cannot be had on WebFlux ({@code principal}). */
    static String key(Rule rule, RuleSet rules, WebfluxApi api, Object request, String path, ExchangeScratch scratch)
            throws Throwable {
        KeySpec spec = rule.key();
        String value = switch (spec.kind()) {
            case GLOBAL, ARG, METADATA -> MISSING; // metadata: gRPC rules only (KeySection)
            case IP -> clientIp(rules.clientIp(), api, request, scratch);
            case HEADER -> api.header(request, spec.name());
            case PARAM -> api.queryParam(request, spec.name());
            case PRINCIPAL -> null;
            case PATH -> path;
            case PATH_PARAM -> rule.pathParam(path);
        };
        if (value == null) {
            return spec.kind() == KeySpec.Kind.PRINCIPAL ? null : MISSING;
        }
        return value;
    }

    /** Why {@link #key} gave null, for the log. */
    static String missing(Rule rule) {
        return "limiter: rule " + rule.id() + " keys on principal, which WebFlux does not supply before its handler"
                + " runs; its on-error decides";
    }

    /** The client's key: its address, an IPv6 client by its network ({@link ClientIpResolver#key}). */
    private static String clientIp(ClientIpResolver resolver, WebfluxApi api, Object request,
            ExchangeScratch scratch) throws Throwable {
        return resolver.key(clientAddress(resolver, api, request, scratch));
    }

    /** The peer address unless the peer is a trusted proxy, as for servlets ({@link ClientIpResolver}). */
    static String clientAddress(ClientIpResolver resolver, WebfluxApi api, Object request, ExchangeScratch scratch)
            throws Throwable {
        InetSocketAddress remote = api.remoteAddress(request);
        String peer = remote == null ? null : scratch.peerText(remote.getAddress());
        if (peer == null || !resolver.isTrusted(peer)) {
            return peer;
        }
        return resolver.resolve(peer, api.headerLines(request, "X-Forwarded-For"),
                api.headerLines(request, "Forwarded"));
    }
}
