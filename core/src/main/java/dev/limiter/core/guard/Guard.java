package dev.limiter.core.guard;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.Clock;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.core.strategy.Strategies;
import dev.limiter.core.strategy.Strategy;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;

/**
 * The programmatic facade for library users who want rate limits without the agent:
 * <pre>{@code
 * Guard guard = Guard.create();
 * Limit perIp = guard.limit("ip:1.2.3.4", 100, 1, TimeUnit.SECONDS);      // once
 * long[] out = Outcome.newArray();                                          // once per thread
 * if (!perIp.tryAcquire(out)) { respond429(Outcome.retryAfterSeconds(out)); }
 *
 * KeyedLimiter perUser = guard.keyed("per-user", Strategy.TOKEN_BUCKET, LimitConfig.of(50, 60_000), 100_000);
 * perUser.tryAcquire(userId, out);
 * }</pre>
 *
 * <p>Registration (by name) is the only step that allocates; it returns the same handle for the same name, so a
 * caller may also call {@code limit(...)} on each request at the cost of one map lookup. Registering a name
 * again with different limits reconfigures the existing handle (state carries over), with a different
 * strategy throws. All limits of a guard share its clock.
 */
public final class Guard {

    private final Clock clock;
    private final ConcurrentHashMap<String, Limit> limits = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, LocalKeyedLimiter> keyed = new ConcurrentHashMap<>();

    private Guard(Clock clock) {
        this.clock = clock;
    }

    /** A guard on the shared coarse clock. */
    public static Guard create() {
        return new Guard(null);
    }

    /** A guard on {@code clock} (tests use a {@code ManualClock}). */
    public static Guard create(Clock clock) {
        if (clock == null) {
            throw new IllegalArgumentException("clock must not be null");
        }
        return new Guard(clock);
    }

    /** A token bucket of {@code limit} permits per {@code period} (burst = limit), registered as {@code name}. */
    public Limit limit(String name, long limit, long period, TimeUnit unit) {
        return limit(name, limit, period, unit, Strategy.TOKEN_BUCKET);
    }

    /** {@code limit} per {@code period} with a built-in strategy. */
    public Limit limit(String name, long limit, long period, TimeUnit unit, Strategy strategy) {
        Limit existing = limits.get(name);
        if (existing != null && existing.strategy() == strategy.get() && unchanged(existing, limit, period, unit)) {
            return existing; // the per-request form: one map lookup, nothing allocated
        }
        return limit(name, strategy.get(), config(limit, period, unit));
    }

    /**
     * {@code limit} per {@code period} with the strategy called {@code strategyName} (built-in or SPI).
     *
     * @throws IllegalArgumentException if no strategy has that name
     */
    public Limit limit(String name, long limit, long period, TimeUnit unit, String strategyName) {
        Limit existing = limits.get(name);
        if (existing != null && existing.strategy().name().equals(strategyName)
                && unchanged(existing, limit, period, unit)) {
            return existing;
        }
        return limit(name, resolve(strategyName), config(limit, period, unit));
    }

    private static boolean unchanged(Limit existing, long limit, long period, TimeUnit unit) {
        LimitConfig c = existing.config();
        return c.limit() == limit && c.windowMillis() == unit.toMillis(period) && c.capacity() == limit;
    }

    /** A limit with full control over the config (capacity) and strategy. */
    public Limit limit(String name, RateLimitStrategy strategy, LimitConfig config) {
        LimitConfig cfg = withClock(config);
        Limit existing = limits.get(name);
        if (existing == null) {
            existing = limits.computeIfAbsent(name, n -> new Limit(n, strategy, cfg));
        }
        if (existing.strategy() != strategy) {
            throw new IllegalArgumentException("limit '" + name + "' already uses " + existing.strategy().name());
        }
        if (!existing.config().sameLimits(cfg)) {
            existing.reconfigure(cfg);
        }
        return existing;
    }

    /** A limiter over many keys (one bucket per key, at most {@code maxKeys}), registered as {@code name}. */
    public KeyedLimiter keyed(String name, Strategy strategy, LimitConfig config, int maxKeys) {
        return keyed(name, strategy.get(), config, maxKeys);
    }

    /** A limiter over many keys with any strategy. */
    public KeyedLimiter keyed(String name, RateLimitStrategy strategy, LimitConfig config, int maxKeys) {
        LimitConfig cfg = withClock(config);
        LocalKeyedLimiter existing = keyed.computeIfAbsent(name,
                n -> LocalKeyedLimiter.create(strategy, cfg, maxKeys));
        if (existing.strategy() != strategy) {
            throw new IllegalArgumentException("limiter '" + name + "' already uses " + existing.strategy().name());
        }
        if (!existing.config().sameLimits(cfg)) {
            existing.reconfigure(cfg);
        }
        return existing;
    }

    /** The limit registered as {@code name}, or null. */
    public Limit get(String name) {
        return limits.get(name);
    }

    /** Forgets the limit registered as {@code name}. */
    public void remove(String name) {
        limits.remove(name);
        keyed.remove(name);
    }

    private LimitConfig config(long limit, long period, TimeUnit unit) {
        return LimitConfig.of(limit, unit.toMillis(period));
    }

    private LimitConfig withClock(LimitConfig config) {
        return clock == null ? config : config.withClock(clock);
    }

    private static RateLimitStrategy resolve(String strategyName) {
        RateLimitStrategy s = Strategies.byName(strategyName);
        if (s == null) {
            throw new IllegalArgumentException("unknown strategy '" + strategyName + "'; known: " + Strategies.names());
        }
        return s;
    }
}
