package dev.limiter.it;

/**
 * The rules files of the start-up scenarios, which need JVMs of their own: an invalid one (its error on
 * {@link #INVALID_LINE}) and the fixed one with a marker rule, both with the default response section.
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
}
