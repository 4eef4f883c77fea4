package dev.limiter.bench;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.SystemClock;
import dev.limiter.core.strategy.Strategies;

/**
 * Builds our side of each comparison from {@link SameLimits}, and fails a benchmark loudly when it is not on the
 * path it claims to measure (a rejected call costs less than an admitted one, so a silent switch would flatter
 * us).
 */
final class OurLimiters {

    private OurLimiters() {
    }

    static RateLimitStrategy strategy(String name) {
        RateLimitStrategy strategy = Strategies.byName(name);
        if (strategy == null) {
            throw new IllegalArgumentException("unknown strategy " + name + "; known: " + Strategies.names());
        }
        return strategy;
    }

    /** The allowed-path limits for {@code strategy}, validated as a rule would be. */
    static LimitConfig allowedConfig(RateLimitStrategy strategy) {
        LimitConfig config = strategy.name().equals("sliding-window")
                ? LimitConfig.of(SameLimits.SLIDING_ALLOWED_LIMIT, SameLimits.SLIDING_ALLOWED_WINDOW.toMillis())
                : LimitConfig.of(SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW.toMillis());
        strategy.validate(config);
        return config;
    }

    /**
     * {@code config} on the named clock: {@code coarse} leaves it on the library's default (the shared
     * {@code CoarseClock}), {@code system} reads {@link SystemClock}, as the agent's rules do.
     */
    static LimitConfig onClock(LimitConfig config, String clock) {
        return switch (clock) {
            case "coarse" -> config;
            case "system" -> config.withClock(SystemClock.INSTANCE);
            default -> throw new IllegalArgumentException("unknown clock " + clock + "; known: coarse, system");
        };
    }

    /** The rejected-path limits, validated as a rule would be. */
    static LimitConfig exhaustedConfig(RateLimitStrategy strategy) {
        LimitConfig config = LimitConfig.of(SameLimits.EXHAUSTED_LIMIT, SameLimits.EXHAUSTED_WINDOW.toMillis());
        strategy.validate(config);
        return config;
    }

    static void requireAllowed(boolean allowed, String what) {
        if (!allowed) {
            throw new IllegalStateException(what + " rejected a call: the benchmark left the allowed path");
        }
    }

    static void requireRejected(boolean allowed, String what) {
        if (allowed) {
            throw new IllegalStateException(what + " admitted a call: the benchmark left the rejected path");
        }
    }
}
