package dev.limiter.it.quarkus;

import dev.limiter.it.ScenarioContract;

/**
 * The rules file one Quarkus server JVM serves all scenarios of {@link QuarkusHttpLimiterTest} with: the shared
 * {@code http:} scenarios of the servlet and WebFlux matrices ({@link ScenarioContract#rules}, with its marker rule
 * per version), then the Vert.x ones: the same extra scenarios as WebFlux, an {@code on-limit: wait} rule (never
 * parks the event loop), a path for spellings of it, and one path under both an {@code http:} and a {@code jaxrs:} rule.
 */
record QuarkusHttpScenarioRules(String trustedProxies, int reloadLimit, String dryMode) {

    static final int RULE_COUNT = 20;

    static QuarkusHttpScenarioRules initial() {
        return new QuarkusHttpScenarioRules("10.0.0.0/8", 2, "dry-run");
    }

    QuarkusHttpScenarioRules trusting(String cidr) {
        return new QuarkusHttpScenarioRules(cidr, reloadLimit, dryMode);
    }

    QuarkusHttpScenarioRules withReloadLimit(int limit) {
        return new QuarkusHttpScenarioRules(trustedProxies, limit, dryMode);
    }

    QuarkusHttpScenarioRules withDryMode(String mode) {
        return new QuarkusHttpScenarioRules(trustedProxies, reloadLimit, mode);
    }

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
                  - id: loop-waits
                    match: { http: { path: /api/items/waits } }
                    strategy: token-bucket
                    limit: 2
                    window: 10s         # a burst of 2, then one permit every 5 s: a wait would fit in max-wait
                    on-limit: wait
                    max-wait: 30s
                    max-waiters: 10
                  - id: secret
                    match: { http: { path: /api/items/secret } }
                    limit: 1
                    window: 1h
                  - id: posted
                    match: { http: { path: /api/items/posted } }
                    limit: 1
                    window: 1h
                  - id: both-http
                    match: { http: { path: /api/both } }
                    limit: 3
                    window: 1h
                  - id: both-jaxrs
                    match: { jaxrs: { class: %s, method: both } }
                    limit: 2
                    window: 1h
                """.formatted(QuarkusScenarioRules.RESOURCE);
    }
}
