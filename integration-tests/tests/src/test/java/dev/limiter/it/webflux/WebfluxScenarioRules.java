package dev.limiter.it.webflux;

import dev.limiter.it.ScenarioContract;

/**
 * The rules file one WebFlux server JVM serves all scenarios of {@link AbstractWebfluxLimiterTest} with, in the
 * shape of the servlet matrix's rules: every scenario owns a rule id and a path, the same {@code response:}
 * section (so headers and body can be held to the servlet contract), and each rendered version carries a marker
 * rule ({@code rules-v<N>}, limit 1): its second request is rejected exactly when version N is live. The top of
 * the file and the scenarios the servlet matrix runs too come from {@link ScenarioContract}.
 */
record WebfluxScenarioRules(String trustedProxies, int reloadLimit, String dryMode) {

    static final int RULE_COUNT = 16;

    static WebfluxScenarioRules initial() {
        return new WebfluxScenarioRules("10.0.0.0/8", 2, "dry-run");
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

    /** The shared scenarios' rules ({@link ScenarioContract#rules}), then the WebFlux-only ones. */
    String render(int version) {
        return ScenarioContract.rules(version, trustedProxies, dryMode, reloadLimit) + """
                  - id: counted
                    match: { http: { path: /api/items/counted } }
                    limit: 3
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
                """;
    }
}
