package dev.limiter.it;

/**
 * The rules file one server JVM serves all scenarios of {@link AbstractLimiterServerTest} with: every scenario
 * owns its rule id and path, so they never spend each other's budget, and the knobs that reload scenarios turn
 * are fields. Each rendered version carries a marker rule ({@code rules-v<N>}, limit 1 on
 * {@code /api/items/rules-v<N>}): the second request to that path is rejected exactly when version N is live,
 * which is how a test knows a reload has happened without sleeping.
 *
 * <p>Windows are one hour (one minute for {@code exact}, which checks {@code w=60}) so nothing resets during a
 * test; {@code WindowGuard} keeps exact-count tests clear of an epoch-aligned window end. The top of the file and
 * the scenarios the WebFlux tests run too come from {@link ScenarioContract}.
 */
record ScenarioRules(String trustedProxies, int reloadLimit, int keepLimit, String dryMode) {

    static ScenarioRules initial() {
        return new ScenarioRules("10.0.0.0/8", 2, 1, "dry-run");
    }

    static String markerPath(int version) {
        return ScenarioContract.markerPath(version);
    }

    ScenarioRules trusting(String cidr) {
        return new ScenarioRules(cidr, reloadLimit, keepLimit, dryMode);
    }

    ScenarioRules withReloadLimit(int limit) {
        return new ScenarioRules(trustedProxies, limit, keepLimit, dryMode);
    }

    ScenarioRules withKeepLimit(int limit) {
        return new ScenarioRules(trustedProxies, reloadLimit, limit, dryMode);
    }

    /** The mode of the {@code dry} rule: {@code dry-run} at first, {@code enforce} once the test switches it. */
    ScenarioRules withDryMode(String mode) {
        return new ScenarioRules(trustedProxies, reloadLimit, keepLimit, mode);
    }

    /** The shared scenarios' rules ({@link ScenarioContract#rules}), then the servlet-only ones. */
    String render(int version) {
        return ScenarioContract.rules(version, trustedProxies, dryMode, reloadLimit) + """
                  - id: filter-skip
                    match: { http: { path: /api/items/filter-skip } }
                    limit: 1
                    window: 1h
                  - id: forward-once
                    match: { http: { paths: [/forward, /api/items/fwd] } }
                    limit: 4
                    window: 1h
                  - id: include-once
                    match: { http: { paths: [/include, /api/items/inc] } }
                    limit: 3
                    window: 1h
                  - id: reports
                    match: { http: { path: /reports/** } }
                    strategy: concurrency
                    limit: 2
                  - id: error-once
                    match: { http: { paths: [/boom, /error] } }
                    limit: 3
                    window: 1h
                  - id: async-once
                    match: { http: { path: /async/once } }
                    limit: 3
                    window: 1h
                  - id: async-held
                    match: { http: { path: /async/held } }
                    strategy: concurrency
                    limit: 2
                  - id: keep
                    match: { http: { path: /api/items/keep } }
                    limit: %d
                    window: 1h
                """.formatted(keepLimit);
    }

    /**
     * A version the loader must refuse as a whole: it raises {@code keep}'s limit (which a partial apply would
     * show) and adds a rule with an invalid limit as the last line, returned in {@link Broken#errorLine()}.
     */
    Broken renderBroken(int version) {
        String text = withKeepLimit(1000).render(version) + """
                  - id: broken
                    match: { http: { path: /api/items/broken } }
                    window: 1h
                    limit: -1
                """;
        return new Broken(text, (int) text.lines().count());
    }

    /** A rules text that must not load, and the 1-based line of its error. */
    record Broken(String text, int errorLine) {
    }
}
