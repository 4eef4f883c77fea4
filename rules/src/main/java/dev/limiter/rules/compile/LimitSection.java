package dev.limiter.rules.compile;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.Clock;
import dev.limiter.core.strategy.Strategies;
import dev.limiter.core.strategy.adaptive.AdaptiveStrategy;
import dev.limiter.rules.text.Suggestions;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;
import java.util.List;

/**
 * Validates one rule's limits ({@code strategy}, {@code limit}, {@code window}, {@code capacity}) and then asks
 * the strategy itself whether it can run them ({@link RateLimitStrategy#validate}).
 *
 * <p>Two steps because the rule's other fields are checked in between: {@link #read} records the problems of
 * each value where it is written, {@link #config} builds the limits only from values that passed.
 */
final class LimitSection {

    static final long DEFAULT_CONCURRENCY_WINDOW_MILLIS = 1_000;

    private final Fields rule;
    private final Problems problems;
    private RateLimitStrategy strategy;
    private Long limit;
    private Long window;
    private Long capacity;

    private LimitSection(Fields rule, Problems problems) {
        this.rule = rule;
        this.problems = problems;
    }

    /** Reads the limits of {@code rule}; {@code defaultStrategy} applies when it names none. */
    static LimitSection read(Fields rule, String label, String defaultStrategy, Problems problems) {
        LimitSection limits = new LimitSection(rule, problems);
        limits.read(label, defaultStrategy);
        return limits;
    }

    /**
     * Reads one entry of a {@code limits:} list ({@code limit}, {@code window}, {@code capacity}) under
     * {@code strategy}, the rule's (null if the rule names none that exists).
     */
    static LimitSection entry(Fields entry, String label, RateLimitStrategy strategy, Problems problems) {
        LimitSection limits = new LimitSection(entry, problems);
        limits.strategy = strategy;
        limits.readLimits(label, strategy != null);
        return limits;
    }

    private void read(String label, String defaultStrategy) {
        String strategyName = rule.has("strategy") ? rule.string("strategy") : defaultStrategy;
        if (strategyName != null) {
            strategy = strategy(strategyName, rule.has("strategy") ? rule.get("strategy") : rule.node(), problems);
        }
        // the name first: reading AdaptiveStrategy.INSTANCE would load and initialise the adaptive machinery for
        // every rule (NAME is a constant, inlined)
        if (strategy != null && AdaptiveStrategy.NAME.equals(strategy.name())
                && strategy == AdaptiveStrategy.INSTANCE) {
            AdaptiveSection adaptive = AdaptiveSection.read(rule, problems);
            limit = adaptive.maxLimit();
            window = rule.has("window") ? window() : DEFAULT_CONCURRENCY_WINDOW_MILLIS;
            strategy = adaptive.settings() == null ? null : AdaptiveStrategy.of(adaptive.settings());
            return;
        }
        AdaptiveSection.refuseOutsideAdaptive(rule, problems);
        readLimits(label, strategy != null);
    }

    private void readLimits(String label, boolean knownStrategy) {
        if (!rule.has("limit")) {
            rule.missing("limit");
        } else {
            limit = rule.integer("limit", null);
            if (limit != null && limit < 1) {
                problems.add(rule.get("limit"), "limit must be at least 1, not " + limit);
                limit = null;
            } else if (limit != null && limit > LimitConfig.MAX_LIMIT) {
                problems.add(rule.get("limit"), "limit must be at most " + LimitConfig.MAX_LIMIT);
                limit = null;
            }
        }
        boolean inFlight = strategy != null && strategy.releasesOnExit();
        if (rule.has("window")) {
            window = window();
        } else if (inFlight) {
            window = DEFAULT_CONCURRENCY_WINDOW_MILLIS;
        } else if (knownStrategy) {
            problems.add(rule.node(), label + " has no 'window' (e.g. 'window: 1s'); only concurrency rules"
                    + " need none");
        }
        if (rule.has("capacity")) {
            capacity = rule.integer("capacity", null);
            if (capacity != null && capacity < 1) {
                problems.add(rule.get("capacity"), "capacity must be at least 1, not " + capacity);
                capacity = null;
            } else if (capacity != null && capacity > LimitConfig.MAX_LIMIT) {
                problems.add(rule.get("capacity"), "capacity must be at most " + LimitConfig.MAX_LIMIT);
                capacity = null;
            } else if (capacity != null && strategy != null && !strategy.usesCapacity()) {
                problems.add(rule.get("capacity"), "capacity applies to token-bucket and leaky-bucket, not "
                        + strategy.name());
                capacity = null;
            }
        }
    }

    /** The limit as read, or null if missing or invalid (recorded). */
    Long limit() {
        return limit;
    }

    /** The resolved strategy, or null if the rule names none that exists. */
    RateLimitStrategy strategy() {
        return strategy;
    }

    /**
     * The rule's limits on {@code clock} (the system clock when null), or null when a value was invalid or the
     * strategy refuses them (recorded at the {@code capacity:} if only it is at fault, else at the {@code limit:}).
     */
    LimitConfig config(Clock clock) {
        if (limit == null || window == null || strategy == null) {
            return null;
        }
        LimitConfig config = null;
        LimitConfig withoutCapacity = null;
        try {
            withoutCapacity = LimitConfig.of(limit, window);
            if (clock != null) {
                withoutCapacity = withoutCapacity.withClock(clock);
            }
            config = capacity == null ? withoutCapacity : withoutCapacity.withCapacity(capacity);
        } catch (IllegalArgumentException e) {
            problems.add(rule.has("capacity") ? rule.get("capacity") : rule.get("limit"), e.getMessage());
        }
        String refusal = config == null ? null : refusal(strategy, config);
        if (refusal != null) {
            // blame the capacity only if the strategy accepts the same limits without it
            boolean capacityAtFault = capacity != null && refusal(strategy, withoutCapacity) == null;
            problems.add(rule.get(capacityAtFault ? "capacity" : "limit"), refusal);
            config = null;
        }
        return config;
    }

    /** The strategy called {@code name}, or null after recording that there is none (with a suggestion). */
    static RateLimitStrategy strategy(String name, YamlNode at, Problems problems) {
        RateLimitStrategy strategy = Strategies.byName(name);
        if (strategy == null) {
            List<String> names = Strategies.names();
            String suggestion = Suggestions.closest(name, names);
            problems.add(at, "unknown strategy '" + Fields.shorten(name) + "'"
                    + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)")
                    + "; known strategies: " + String.join(", ", names));
        }
        return strategy;
    }

    /**
     * Why {@code strategy} cannot run with {@code config} (its own {@link RateLimitStrategy#validate}, e.g. the
     * sliding window's 21-bit counts), or null if it can. A custom strategy that fails otherwise is reported too:
     * its bug must read as "this rule cannot be used", not as an internal error of the whole file.
     */
    private static String refusal(RateLimitStrategy strategy, LimitConfig config) {
        try {
            strategy.validate(config);
            return null;
        } catch (IllegalArgumentException e) {
            return e.getMessage() != null && !e.getMessage().isBlank() ? e.getMessage()
                    : "strategy '" + Fields.shorten(strategy.name()) + "' refuses these limits";
        } catch (RuntimeException e) {
            return "strategy '" + Fields.shorten(strategy.name()) + "' failed while checking these limits: " + e;
        }
    }

    private Long window() {
        YamlNode node = rule.get("window");
        if (node.is(YamlNode.Kind.INT)) {
            problems.add(node, "window '" + Fields.shorten(node.text()) + "' has no unit: write e.g. "
                    + Fields.shorten(node.text()) + "ms or " + Fields.shorten(node.text()) + "s");
            return null;
        }
        String text = rule.string("window");
        if (text == null) {
            return null;
        }
        long millis = Durations.millis(text);
        if (millis < 0) {
            problems.add(rule.get("window"), "window '" + Fields.shorten(text) + "' is not a duration: write a"
                    + " whole number and a unit, like 250ms, 1s, 1m, 1h or 1d");
            return null;
        }
        if (millis < 1) {
            problems.add(rule.get("window"), "window must be longer than 0");
            return null;
        }
        if (millis > LimitConfig.MAX_WINDOW_MILLIS) {
            problems.add(rule.get("window"), "window must be at most 49d");
            return null;
        }
        return millis;
    }
}
