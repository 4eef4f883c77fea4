package dev.limiter.agent.http;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeySpec;

/**
 * Turns a rule's {@link KeySpec} into the key of one request, for every server: the one key reader of the agent.
 *
 * <p>A missing value (no such header, parameter or metadata entry, no authenticated user) is not a reason to skip
 * the limit: all requests without the value share one budget, the key {@value #MISSING}, so a client cannot escape a
 * per-API-key limit by sending no key. A parameter the server refuses to parse (Tomcat beyond
 * {@code maxParameterCount}, Jetty on a malformed form) counts the same way: that is the client's malformed
 * request, and were it a failure of the rule, {@code on-error: allow} would let any client past a {@code param:}
 * limit by sending 1,001 parameters.
 *
 * <p>A key the server cannot supply at all ({@code principal} before a reactive handler runs, a path on a gRPC
 * call) is no key: null, so the rule fails and its {@code on-error} decides ({@link #missing} says why, once in a
 * while). The rules refuse most such pairs when the file is read; what they cannot know is which server serves a
 * {@code http:} rule.
 */
public final class HttpKeys {

    public static final String MISSING = "";

    private HttpKeys() {
    }

    /**
     * The key of {@code rule} for {@code request} as {@code view} reads it ({@code path}: the request's rule path,
     * or null to ask the view), or null if this server cannot supply it.
     */
    public static String key(Rule rule, RuleSet rules, RequestView view, Object request, String path,
            PeerCache peers) throws Throwable {
        KeySpec spec = rule.key();
        String value;
        switch (spec.kind()) {
            case GLOBAL, ARG -> {
                return MISSING; // arg: method rules only (KeySection)
            }
            case IP -> value = ClientAddress.key(rules.clientIp(), view, request, peers);
            case HEADER, METADATA -> value = view.header(request, spec.name()); // metadata: gRPC rules only
            case PARAM -> {
                if (view.lacks(RequestView.NO_PATH)) {
                    return null;
                }
                value = parameter(view, request, spec.name());
            }
            case PRINCIPAL -> {
                if (view.lacks(RequestView.NO_PRINCIPAL)) {
                    return null;
                }
                value = view.principal(request);
            }
            case PATH, PATH_PARAM -> {
                String p = path != null ? path : view.path(request);
                if (p == null) {
                    return null;
                }
                value = spec.kind() == KeySpec.Kind.PATH ? p : rule.pathParam(p);
            }
            default -> {
                return null;
            }
        }
        return value == null ? MISSING : value;
    }

    private static String parameter(RequestView view, Object request, String name) throws Throwable {
        try {
            return view.parameter(request, name);
        } catch (RuntimeException refused) {
            return null;
        }
    }

    /** Why {@link #key} gave null, for the log (failure path only). */
    public static String missing(Rule rule, RequestView view) {
        KeySpec.Kind kind = rule.key().kind();
        if (kind == KeySpec.Kind.PRINCIPAL && view.lacks(RequestView.NO_PRINCIPAL)) {
            return "limiter: rule " + rule.id() + " keys on principal, which " + view.server
                    + " does not supply before its handler runs; its on-error decides";
        }
        return "limiter: rule " + rule.id() + " keys on " + rule.key() + ", which " + view.server
                + " does not supply for this call; its on-error decides";
    }
}
