package dev.limiter.it.webflux;

/**
 * The rules file one WebFlux server JVM serves all scenarios of {@link AbstractWebfluxLimiterTest} with, in the
 * shape of the servlet matrix's rules: every scenario owns a rule id and a path, the same {@code response:}
 * section (so headers and body can be held to the servlet contract), and each rendered version carries a marker
 * rule ({@code rules-v<N>}, limit 1): its second request is rejected exactly when version N is live.
 */
record WebfluxScenarioRules(String trustedProxies, int reloadLimit, String dryMode) {

    static final String RESPONSE_CONTENT_TYPE = "application/problem+json";
    static final int RULE_COUNT = 16;

    static WebfluxScenarioRules initial() {
        return new WebfluxScenarioRules("10.0.0.0/8", 2, "dry-run");
    }

    static String markerPath(int version) {
        return "/api/items/rules-v" + version;
    }

    WebfluxScenarioRules trusting(String cidr) {
        return new WebfluxScenarioRules(cidr, reloadLimit, dryMode);
    }

    WebfluxScenarioRules withReloadLimit(int limit) {
        return new WebfluxScenarioRules(trustedProxies, limit, dryMode);
    }

    WebfluxScenarioRules withDryMode(String mode) {
        return new WebfluxScenarioRules(trustedProxies, reloadLimit, mode);
    }

    String render(int version) {
        return """
                version: 1
                response:
                  status: 429
                  content-type: %s
                  body: '{"type":"rate-limited","rule":"${rule}","retry_after":${retry_after}}'
                  headers: both
                client-ip:
                  trusted-proxies: [%s]
                rules:
                  - id: rules-v%d
                    match: { http: { path: %s } }
                    limit: 1
                    window: 1h
                  - id: exact
                    match: { http: { path: /api/items/exact, methods: [GET] } }
                    limit: 5
                    window: 1m
                    strategy: fixed-window
                  - id: counted
                    match: { http: { path: /api/items/counted } }
                    limit: 3
                    window: 1h
                  - id: dry
                    match: { http: { path: /api/items/dry } }
                    limit: 2
                    window: 1h
                    mode: %s
                  - id: xff-untrusted
                    match: { http: { path: /api/items/xff-untrusted } }
                    key: ip
                    limit: 2
                    window: 1h
                  - id: xff-trusted
                    match: { http: { path: /api/items/xff-trusted } }
                    key: ip
                    limit: 2
                    window: 1h
                  - id: by-header
                    match: { http: { path: /api/items/by-header } }
                    key: header:X-Api-Key
                    limit: 1
                    window: 1h
                  - id: by-param
                    match: { http: { path: /api/items/by-param } }
                    key: param:user
                    limit: 1
                    window: 1h
                  - id: by-path-param
                    match: { http: { path: '/api/users/{user}' } }
                    key: path-param:user
                    limit: 1
                    window: 1h
                  - id: global
                    match: { http: { path: /api/hello } }
                    key: global
                    limit: 2
                    window: 1h
                  - id: by-principal
                    match: { http: { path: /api/items/principal } }
                    key: principal
                    on-error: reject
                    limit: 100
                    window: 1h
                  - id: by-principal-open
                    match: { http: { path: /api/items/principal-open } }
                    key: principal
                    limit: 1
                    window: 1h
                  - id: held
                    match: { http: { path: /hold/** } }
                    strategy: concurrency
                    limit: 2
                  - id: failing
                    match: { http: { path: /fail/** } }
                    strategy: concurrency
                    limit: 1
                  - id: streams
                    match: { http: { path: /stream/** } }
                    strategy: concurrency
                    limit: 2
                  - id: reload
                    match: { http: { path: /api/items/reload } }
                    limit: %d
                    window: 1h
                """.formatted(RESPONSE_CONTENT_TYPE, trustedProxies, version, markerPath(version), dryMode,
                reloadLimit);
    }
}
