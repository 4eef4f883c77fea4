package dev.limiter.agent.servlet;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeySpec;

/**
 * The servlet request keys ({@code ip}, {@code header:}, {@code param:}, {@code principal}, {@code path}) for
 * checks that run later on the request's thread: woven JAX-RS resource methods and plain methods, which get
 * the request from {@code LimiterBridge.currentRequest()}.
 *
 * <p>A public facade so the method package can reuse the servlet decision's key extraction (the same trusted
 * proxy handling, the same missing-value rule) without widening the servlet package's internals.
 */
public final class ServletKeys {

    private static final KeyExtractor KEYS = new KeyExtractor(false);

    private ServletKeys() {
    }

    /**
     * The key of {@code rule} for {@code request}, or null if {@code request} is not an HTTP servlet request the
     * agent can read. A missing header, parameter or user is the empty key, as for servlet rules.
     */
    public static String key(Rule rule, RuleSet rules, Object request) throws Throwable {
        ServletApi api = ServletApi.of(request);
        if (!api.supported) {
            return null;
        }
        String path = rule.key().kind() == KeySpec.Kind.PATH ? api.path(request) : null;
        return KEYS.key(rule, rules, api, request, path);
    }
}
