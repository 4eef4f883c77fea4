package dev.limiter.core.strategy.adaptive;

import java.util.Locale;

/**
 * What an adaptive limit may do: its algorithm, its bounds and its start. The upper bound is the rule's limit
 * ({@code max-limit}, carried in the {@code LimitConfig}); these are the rest. Immutable; equal settings mean an
 * unchanged rule, whose learned limit survives a reload.
 *
 * @param algorithm {@code gradient} or {@code vegas}
 * @param minLimit the limit never goes below this (at least 1)
 * @param initialLimit where the limit starts for a new key (clamped into the bounds)
 */
public record AdaptiveSettings(String algorithm, long minLimit, long initialLimit) {

    public static final String GRADIENT = "gradient";
    public static final String VEGAS = "vegas";

    /** The defaults, tuned for no tuning: gradient, 4 to the max-limit, starting at 20. */
    public static final AdaptiveSettings DEFAULTS = new AdaptiveSettings(GRADIENT, 4, 20);

    /** The upper bound when a rule gives none. */
    public static final long DEFAULT_MAX_LIMIT = 1000;

    public AdaptiveSettings {
        algorithm = algorithm.toLowerCase(Locale.ROOT);
        if (!algorithm.equals(GRADIENT) && !algorithm.equals(VEGAS)) {
            throw new IllegalArgumentException("unknown algorithm '" + algorithm + "' (gradient or vegas)");
        }
        if (minLimit < 1) {
            throw new IllegalArgumentException("min-limit must be at least 1: " + minLimit);
        }
        if (initialLimit < minLimit) {
            throw new IllegalArgumentException("initial-limit " + initialLimit + " is below min-limit " + minLimit);
        }
    }

    /** The algorithm that moves the limit. */
    LimitAlgorithm newAlgorithm() {
        return algorithm.equals(VEGAS) ? VegasAlgorithm.INSTANCE : GradientAlgorithm.INSTANCE;
    }
}
