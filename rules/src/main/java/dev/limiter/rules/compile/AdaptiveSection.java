package dev.limiter.rules.compile;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.strategy.adaptive.AdaptiveSettings;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;

/**
 * The options of a {@code strategy: adaptive} rule, each optional: {@code algorithm} ({@code gradient} or
 * {@code vegas}), {@code min-limit}, {@code max-limit} and {@code initial-limit}. Such a rule finds its limit, so
 * {@code limit:} is refused there (with what to write instead), and these options are refused on any other rule.
 */
final class AdaptiveSection {

    static final String[] KEYS = {"algorithm", "min-limit", "max-limit", "initial-limit"};

    private final Long maxLimit;
    private final AdaptiveSettings settings;

    private AdaptiveSection(Long maxLimit, AdaptiveSettings settings) {
        this.maxLimit = maxLimit;
        this.settings = settings;
    }

    /** The ceiling, or null if invalid (reported). */
    Long maxLimit() {
        return maxLimit;
    }

    /** The settings, or null if a value was invalid (reported). */
    AdaptiveSettings settings() {
        return settings;
    }

    static AdaptiveSection read(Fields rule, Problems problems) {
        if (rule.has("limit")) {
            problems.add(rule.get("limit"), "an adaptive rule finds its own limit: bound it with 'max-limit' (and"
                    + " 'min-limit') instead of 'limit'");
        }
        if (rule.has("limits")) {
            problems.add(rule.get("limits"), "an adaptive rule has one limit, which it finds itself: 'limits' does"
                    + " not apply");
        }
        if (rule.has("capacity")) {
            problems.add(rule.get("capacity"), "capacity applies to token-bucket and leaky-bucket, not adaptive");
        }
        AdaptiveSettings defaults = AdaptiveSettings.DEFAULTS;
        Long max = bounded(rule, "max-limit", AdaptiveSettings.DEFAULT_MAX_LIMIT, problems);
        Long min = bounded(rule, "min-limit", Math.min(defaults.minLimit(), max == null ? 1 : max), problems);
        String algorithm = rule.has("algorithm")
                ? rule.choice("algorithm", AdaptiveSettings.GRADIENT, AdaptiveSettings.VEGAS)
                : defaults.algorithm();
        Long initial = null;
        if (min != null && max != null) {
            if (min > max) {
                problems.add(rule.get("min-limit"), "min-limit " + min + " is above max-limit " + max);
                min = null;
            } else {
                long fallback = Math.max(min, Math.min(max, defaults.initialLimit()));
                initial = bounded(rule, "initial-limit", fallback, problems);
                if (initial != null && (initial < min || initial > max)) {
                    problems.add(rule.get("initial-limit"), "initial-limit " + initial + " is outside min-limit "
                            + min + " and max-limit " + max);
                    initial = null;
                }
            }
        }
        AdaptiveSettings settings = min == null || initial == null || algorithm == null ? null
                : new AdaptiveSettings(algorithm, min, initial);
        return new AdaptiveSection(max, settings);
    }

    /** Refuses the adaptive options on a rule of another strategy: they would be ignored there. */
    static void refuseOutsideAdaptive(Fields rule, Problems problems) {
        for (String key : KEYS) {
            if (rule.has(key)) {
                problems.add(rule.get(key), "'" + key + "' applies to 'strategy: adaptive' only");
            }
        }
    }

    private static Long bounded(Fields rule, String key, long absent, Problems problems) {
        Long value = rule.integer(key, absent);
        if (value != null && (value < 1 || value > LimitConfig.MAX_LIMIT)) {
            problems.add(rule.get(key), key + " must be from 1 to " + LimitConfig.MAX_LIMIT + ", not " + value);
            return null;
        }
        return value;
    }
}
