package dev.limiter.agent;

import java.nio.file.Path;

/**
 * The {@code -javaagent:limiter.jar=...} argument string, parsed.
 *
 * <p>Two forms: a bare path ({@code =rules.yml}) or comma-separated {@code key=value} pairs
 * ({@code =rules=/etc/rules.yml,strict=true}). When no rules file is given, {@code limiter.rules} (system
 * property) and then {@code LIMITER_RULES} (environment) are consulted, then {@code rules.yml} in the working
 * directory. Unknown keys are errors, so a typo is not silently ignored.
 *
 * @param rules  the rules file
 * @param strict true: invalid rules at start-up stop the JVM instead of starting unprotected
 */
public record AgentArgs(Path rules, boolean strict) {

    /** Parses the agent argument string (null or empty allowed). */
    public static AgentArgs parse(String args) {
        String rules = null;
        boolean strict = false;
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
                        default -> throw new IllegalArgumentException(
                                "unknown agent argument '" + key + "' (known: rules, strict)");
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
        return new AgentArgs(Path.of(rules), strict);
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
