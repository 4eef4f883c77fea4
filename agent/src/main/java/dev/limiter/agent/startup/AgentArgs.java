package dev.limiter.agent.startup;

import dev.limiter.rules.MetricsSpec;
import java.nio.file.Path;
import java.util.List;

/**
 * The {@code -javaagent:limiter.jar=...} argument string, parsed.
 *
 * <p>Two forms: a bare path ({@code =rules.yml}) or comma-separated {@code key=value} pairs
 * ({@code =rules=/etc/rules.yml,strict=true}). When no rules file is given, {@code limiter.rules} (system
 * property) and then {@code LIMITER_RULES} (environment) are consulted, then {@code rules.yml} in the working
 * directory. Unknown keys are errors, so a typo is not silently ignored.
 *
 * <p>{@code strategies=/path/a.jar:/path/b.jar} ({@link java.io.File#pathSeparator}, since {@code ,} separates
 * the arguments) names jars of custom strategies, loaded by {@link StrategyJars} before the rules.
 *
 * <p>{@code prometheus=HOST:PORT} opens the Prometheus endpoint there (docs/metrics.md); it wins over the rules
 * file's {@code metrics.prometheus.listen}. Checked as the rules file checks it ({@link MetricsSpec#listenProblem}).
 *
 * @param rules      the rules file
 * @param strict     true: invalid rules at start-up stop the JVM instead of starting unprotected
 * @param strategies jars of custom strategies (empty if none)
 * @param prometheus {@code HOST:PORT} of the Prometheus endpoint, or null (then the rules file decides)
 */
public record AgentArgs(Path rules, boolean strict, List<Path> strategies, String prometheus) {

    public AgentArgs {
        strategies = List.copyOf(strategies);
    }

    /** No Prometheus endpoint asked for. */
    public AgentArgs(Path rules, boolean strict, List<Path> strategies) {
        this(rules, strict, strategies, null);
    }

    /** No custom strategies. */
    public AgentArgs(Path rules, boolean strict) {
        this(rules, strict, List.of());
    }

    /** Parses the agent argument string (null or empty allowed). */
    public static AgentArgs parse(String args) {
        String rules = null;
        boolean strict = false;
        List<Path> strategies = List.of();
        String prometheus = null;
        if (args != null && !args.isBlank()) {
            String trimmed = args.trim();
            if (trimmed.indexOf('=') < 0) {
                rules = trimmed;
            } else {
                for (String part : trimmed.split(",")) {
                    String item = part.trim();
                    if (item.isEmpty()) {
                        continue;
                    }
                    int eq = item.indexOf('=');
                    if (eq <= 0) {
                        throw new IllegalArgumentException("agent argument '" + item + "' is not key=value");
                    }
                    String key = item.substring(0, eq).trim();
                    String value = item.substring(eq + 1).trim();
                    switch (key) {
                        case "rules" -> rules = value;
                        case "strict" -> strict = parseBoolean(key, value);
                        case "strategies" -> strategies = StrategyJars.parse(value);
                        case "prometheus" -> prometheus = listen(value);
                        default -> throw new IllegalArgumentException("unknown agent argument '" + key
                                + "' (known: rules, strict, strategies, prometheus)");
                    }
                }
            }
        }
        if (rules == null || rules.isEmpty()) {
            rules = System.getProperty("limiter.rules");
        }
        if (rules == null || rules.isEmpty()) {
            rules = System.getenv("LIMITER_RULES");
        }
        if (rules == null || rules.isEmpty()) {
            rules = "rules.yml";
        }
        return new AgentArgs(Path.of(rules), strict, strategies, prometheus);
    }

    private static String listen(String value) {
        String problem = MetricsSpec.listenProblem(value);
        if (problem != null) {
            throw new IllegalArgumentException("agent argument prometheus " + problem);
        }
        return value;
    }

    private static boolean parseBoolean(String key, String value) {
        if (value.equalsIgnoreCase("true")) {
            return true;
        }
        if (value.equalsIgnoreCase("false")) {
            return false;
        }
        throw new IllegalArgumentException("agent argument " + key + " must be true or false, not '" + value + "'");
    }
}
