package dev.limiter.it.reactive;

import dev.limiter.it.ScenarioContract;

/**
 * The rules file one reactive server JVM (WebFlux, Quarkus / Vert.x) serves all scenarios of
 * {@link AbstractReactiveHttpLimiterTest} with, in the shape of the servlet matrix's rules: every scenario owns a
 * rule id and a path, the same {@code response:} section (so headers and body can be held to the servlet
 * contract), and each rendered version carries a marker rule ({@code rules-v<N>}, limit 1): its second request
 * is rejected exactly when version N is live. The top of the file and the scenarios the servlet matrix runs too
 * come from {@link ScenarioContract}; then the reactive ones; then the stack's own ({@code stackRules}, rule
 * entries indented by two spaces, {@code stackRuleCount} of them).
 */
public record ReactiveScenarioRules(String trustedProxies, int reloadLimit, String dryMode, String stackRules,
        int stackRuleCount) {

    /** The rules {@link ScenarioContract#rules} and this record's reactive scenarios add up to. */
    private static final int SHARED_RULE_COUNT = 15;

    public static ReactiveScenarioRules initial(String stackRules, int stackRuleCount) {
        return new ReactiveScenarioRules("10.0.0.0/8", 2, "dry-run", stackRules, stackRuleCount);
    }

    public int ruleCount() {
        return SHARED_RULE_COUNT + stackRuleCount;
    }

    public ReactiveScenarioRules trusting(String cidr) {
        return new ReactiveScenarioRules(cidr, reloadLimit, dryMode, stackRules, stackRuleCount);
    }

    public ReactiveScenarioRules withReloadLimit(int limit) {
        return new ReactiveScenarioRules(trustedProxies, limit, dryMode, stackRules, stackRuleCount);
    }

    public ReactiveScenarioRules withDryMode(String mode) {
        return new ReactiveScenarioRules(trustedProxies, reloadLimit, mode, stackRules, stackRuleCount);
    }

    /** The shared scenarios' rules ({@link ScenarioContract#rules}), the reactive ones, then the stack's own. */
    public String render(int version) {
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
                """ + stackRules;
    }
}
