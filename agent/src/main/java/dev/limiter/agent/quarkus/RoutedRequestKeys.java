package dev.limiter.agent.quarkus;

import dev.limiter.agent.decision.RequestKeys;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeySpec;

/**
 * The HTTP keys of woven resource methods ({@code jaxrs:} rules) for whichever request is current on the thread:
 * a RESTEasy Reactive context on Vert.x (Quarkus REST, made current by the woven handler chain) is read here; any
 * other request (a servlet request) goes to {@code servlet}. The same key rules as the servlet adapter's: a
 * missing header or parameter counts under the shared empty key (sending no key is no escape), the client address
 * is the peer unless it is a trusted proxy, an IPv6 client is keyed by its network.
 *
 * <p>Differences, from what Quarkus REST has when the resource method runs: {@code param:} reads the query string
 * only (the body may not have been read, and reading it here could block); {@code principal} has no value (Quarkus
 * security's identity is not a servlet principal), so the key is missing and the rule's {@code on-error} decides;
 * conditions' roles are never held.
 */
public final class RoutedRequestKeys implements RequestKeys {

    private static final String MISSING = "";

    private final RequestKeys servlet;
    private final ThrottledLog log;

    /** Keys Quarkus REST requests here and every other request with {@code servlet}. */
    public RoutedRequestKeys(RequestKeys servlet, ThrottledLog log) {
        this.servlet = servlet;
        this.log = log;
    }

    @Override
    public String key(Rule rule, RuleSet rules, Object request) throws Throwable {
        VertxRequestApi api = VertxRequestApi.of(request);
        if (!api.supported) {
            if (api.problem != null) {
                log.warn("limiter: this Quarkus REST (RESTEasy Reactive on Vert.x) is not supported; HTTP keys of"
                        + " jaxrs rules are missing there", api.problem);
                return null;
            }
            return servlet.key(rule, rules, request);
        }
        KeySpec spec = rule.key();
        String value = switch (spec.kind()) {
            case GLOBAL, ARG, METADATA -> MISSING;
            case IP -> rules.clientIp().key(ClientAddress.of(rules.clientIp(), api, request));
            case HEADER -> api.header(request, spec.name());
            case PARAM -> api.queryParam(request, spec.name());
            case PRINCIPAL -> null;
            case PATH -> api.path(request);
            case PATH_PARAM -> rule.pathParam(api.path(request));
        };
        if (value == null) {
            return spec.kind() == KeySpec.Kind.PRINCIPAL ? null : MISSING;
        }
        return value;
    }

    @Override
    public String header(Object request, String name) throws Throwable {
        VertxRequestApi api = VertxRequestApi.of(request);
        return api.supported ? api.header(request, name) : servlet.header(request, name);
    }

    @Override
    public String clientAddress(RuleSet rules, Object request) throws Throwable {
        VertxRequestApi api = VertxRequestApi.of(request);
        return api.supported ? ClientAddress.of(rules.clientIp(), api, request)
                : servlet.clientAddress(rules, request);
    }

    @Override
    public boolean isUserInRole(Object request, String role) throws Throwable {
        VertxRequestApi api = VertxRequestApi.of(request);
        return !api.supported && servlet.isUserInRole(request, role);
    }

}
