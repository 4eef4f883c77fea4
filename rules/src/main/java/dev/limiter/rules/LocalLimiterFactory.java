package dev.limiter.rules;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.store.LocalKeyedLimiter;

/**
 * {@link LimiterFactory#LOCAL}: an in-JVM limiter for every rule, whatever its store says. A class, not a lambda:
 * the agent compiles rules while the application starts, and a lambda's first use spins classes and method
 * handles (and the JIT then compiles the JDK's lambda machinery).
 */
final class LocalLimiterFactory implements LimiterFactory {

    @Override
    public KeyedLimiter create(String ruleId, StoreSpec store, RateLimitStrategy strategy, LimitConfig config,
            int maxKeys, OnFull onFull) {
        return LocalKeyedLimiter.create(strategy, config, maxKeys, onFull);
    }
}
