package dev.limiter.agent.testing;

/**
 * The {@code http-client:} rules the outbound test programs play against, as rules-file text: each rule matches
 * paths of the local partner server ({@code 127.0.0.1}) and is named for its scenario.
 */
public final class ClientRules {

    private ClientRules() {
    }

    /** A rules file of {@code rules}. */
    public static String file(String... rules) {
        return "version: 1\nrules:\n" + String.join("", rules);
    }

    /** Two calls an hour: a token bucket, whose next permit is 30 minutes away whenever the test runs. */
    public static String twoAnHour(String id, String... paths) {
        return rule(id, paths, "strategy: token-bucket", "limit: 2", "window: 1h");
    }

    /** Calls paced to {@code perSecond}, one at a time, waiting up to 30 s. */
    public static String paced(String id, int perSecond, String... paths) {
        return rule(id, paths, "strategy: leaky-bucket", "limit: " + perSecond, "window: 1s", "capacity: 1",
                "on-limit: wait", "max-wait: 30s");
    }

    /** A generous limit whose key a {@code Retry-After} answer pauses. */
    public static String honoursRetryAfter(String id, String... paths) {
        return rule(id, paths, "limit: 1000", "window: 1s", "honor-retry-after: true");
    }

    /** At most {@code limit} calls in flight. */
    public static String inFlight(String id, int limit, String... paths) {
        return rule(id, paths, "strategy: concurrency", "limit: " + limit);
    }

    /** A rule named {@code id} over {@code paths} with {@code lines} (more lines of the rule, as in the file). */
    public static String rule(String id, String[] paths, String... lines) {
        StringBuilder rule = new StringBuilder("  - id: ").append(id)
                .append("\n    match: { http-client: { host: 127.0.0.1, paths: [");
        for (int i = 0; i < paths.length; i++) {
            rule.append(i == 0 ? "'" : ", '").append(paths[i]).append("'");
        }
        rule.append("] } }\n");
        for (String line : lines) {
            rule.append("    ").append(line).append('\n');
        }
        return rule.toString();
    }
}
