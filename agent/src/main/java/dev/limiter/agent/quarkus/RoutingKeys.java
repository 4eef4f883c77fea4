package dev.limiter.agent.quarkus;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeySpec;

/**
 * Turns an {@code http:} rule's {@link KeySpec} into the key of one Vert.x Web request, as the servlet and WebFlux
 * adapters do: a missing header or parameter counts under the shared key {@value #MISSING}, so sending no key is
 * no escape; the client address is the connection's peer unless it is a trusted proxy; an IPv6 client is keyed by
 * its network. Two differences, from what a request has before it is routed:
 * <ul>
 *   <li>{@code param:} reads the query string only; the body is never read here (it may not have arrived).</li>
 *   <li>{@code principal} has no value: Quarkus security authenticates in a route handler, after this point. The
 *       key is missing, so the rule fails and its {@code on-error} decides (docs/rules.md).</li>
 * </ul>
 */
final class RoutingKeys {

    static final String MISSING = "";

    private RoutingKeys() {
    }

    /** The key, or null when it cannot be had before routing ({@code principal}). */
    static String key(Rule rule, RuleSet rules, RoutingApi api, Object request, String path) throws Throwable {
        KeySpec spec = rule.key();
        String value = switch (spec.kind()) {
            case GLOBAL, ARG, METADATA -> MISSING; // arg: method rules, metadata: gRPC rules (KeySection)
            case IP -> rules.clientIp().key(ClientAddress.of(rules.clientIp(), api, request));
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
        return "limiter: rule " + rule.id() + " keys on principal, which Vert.x does not supply before routing;"
                + " its on-error decides";
    }

}
