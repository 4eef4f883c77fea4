package dev.limiter.core.strategy;

import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.strategy.ConcurrencyStrategy;
import dev.limiter.core.strategy.FixedWindowStrategy;
import dev.limiter.core.strategy.LeakyBucketStrategy;
import dev.limiter.core.strategy.SlidingLogStrategy;
import dev.limiter.core.strategy.SlidingWindowStrategy;
import dev.limiter.core.strategy.TokenBucketStrategy;
import dev.limiter.core.strategy.adaptive.AdaptiveStrategy;

/**
 * The built-in algorithms, for code that picks one in Java rather than by name (the {@link Guard} facade).
 * Rules refer to the same strategies by {@link #id()}; custom strategies are found with
 * {@link Strategies#byName(String)}.
 */
public enum Strategy {
    FIXED_WINDOW(FixedWindowStrategy.INSTANCE),
    TOKEN_BUCKET(TokenBucketStrategy.INSTANCE),
    SLIDING_WINDOW(SlidingWindowStrategy.INSTANCE),
    SLIDING_LOG(SlidingLogStrategy.INSTANCE),
    LEAKY_BUCKET(LeakyBucketStrategy.INSTANCE),
    CONCURRENCY(ConcurrencyStrategy.INSTANCE),
    /** With the default settings; rules give their own ({@code AdaptiveStrategy.of}). */
    ADAPTIVE(AdaptiveStrategy.INSTANCE);

    private final RateLimitStrategy impl;

    Strategy(RateLimitStrategy impl) {
        this.impl = impl;
    }

    /** The name rules use, e.g. {@code token-bucket}. */
    public String id() {
        return impl.name();
    }

    /** The stateless strategy instance. */
    public RateLimitStrategy get() {
        return impl;
    }
}
