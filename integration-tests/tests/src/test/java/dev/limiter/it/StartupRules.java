package dev.limiter.it;

/**
 * The rules files of the start-up scenarios, which need JVMs of their own: an invalid one (its error on
 * {@link #INVALID_LINE}), the fixed one with the default response section, and later versions that change only
 * the response section (the {@code startup} rule and its spent budget survive those reloads).
 */
final class StartupRules {

    /** The 1-based line of {@code limit: 0} in {@link #invalid()}. */
    static final int INVALID_LINE = 5;

    private StartupRules() {
    }

    static String invalid() {
        return """
                version: 1
                rules:
                  - id: startup
                    match: { http: { path: /api/items/startup } }
                    limit: 0
                    window: 1h
                """;
    }

    static String valid(int version) {
        return """
                version: 1
                rules:
                  - id: rules-v%d
                    match: { http: { path: %s } }
                    limit: 1
                    window: 1h
                  - id: startup
                    match: { http: { path: /api/items/startup } }
                    limit: 2
                    window: 1h
                """.formatted(version, ScenarioRules.markerPath(version));
    }

    /** Status 503, {@code text/plain} body {@code slow down: <rule>}, the given header style. */
    static String customResponse(int version, String headers) {
        return """
                version: 1
                response:
                  status: 503
                  content-type: text/plain
                  body: 'slow down: ${rule}'
                  headers: %s
                """.formatted(headers) + valid(version).substring("version: 1\n".length());
    }
}
