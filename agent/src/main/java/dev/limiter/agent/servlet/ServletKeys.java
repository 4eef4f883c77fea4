package dev.limiter.agent.servlet;

import dev.limiter.agent.decision.RequestKeys;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeySpec;

/**
 * The servlet request keys ({@code ip}, {@code header:}, {@code param:}, {@code principal}, {@code path}) for
 * checks that run later on the request's thread: woven JAX-RS resource methods and plain methods, which get
 * the request from {@code LimiterBridge.currentRequest()}. The same key extraction as the servlet decision's
 * (trusted proxies, the missing-value rule).
 */
public final class ServletKeys implements RequestKeys {

    public static final ServletKeys INSTANCE = new ServletKeys();

    private ServletKeys() {
    }

    @Override
    public String key(Rule rule, RuleSet rules, Object request) throws Throwable {
        ServletApi api = ServletApi.of(request);
        if (!api.supported) {
            return null;
        }
        String path = rule.key().kind() == KeySpec.Kind.PATH ? api.path(request) : null;
        return KeyExtractor.key(rule, rules, api, request, path);
    }

    @Override
    public String header(Object request, String name) throws Throwable {
        ServletApi api = ServletApi.of(request);
        return api.supported ? api.header(request, name) : null;
    }

    @Override
    public String clientAddress(RuleSet rules, Object request) throws Throwable {
        ServletApi api = ServletApi.of(request);
        return api.supported ? KeyExtractor.clientAddress(rules.clientIp(), api, request) : null;
    }

    @Override
    public boolean isUserInRole(Object request, String role) throws Throwable {
        ServletApi api = ServletApi.of(request);
        return api.supported && api.isUserInRole(request, role);
    }
}
