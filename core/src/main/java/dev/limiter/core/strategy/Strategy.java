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
    FIXED_WINDOW(FixedWindowStrategy.NAME),
    TOKEN_BUCKET(TokenBucketStrategy.NAME),
    SLIDING_WINDOW(SlidingWindowStrategy.NAME),
    SLIDING_LOG(SlidingLogStrategy.NAME),
    LEAKY_BUCKET(LeakyBucketStrategy.NAME),
    CONCURRENCY(ConcurrencyStrategy.NAME),
    /** With the default settings; rules give their own ({@code AdaptiveStrategy.of}). */
    ADAPTIVE(AdaptiveStrategy.NAME);

    // The name only, not the instance: an instance per constant would load and initialise every algorithm (and
    // the adaptive machinery) when the first rule names any strategy. The NAME constants are inlined.
    private final String id;

    Strategy(String id) {
        this.id = id;
    }

    /** The name rules use, e.g. {@code token-bucket}. */
    public String id() {
        return id;
    }

    /** The stateless strategy instance. */
    public RateLimitStrategy get() {
        // a switch on the name (not on the constant: that would add a switch-map class) loads only this one
        switch (id) {
            case FixedWindowStrategy.NAME:
                return FixedWindowStrategy.INSTANCE;
            case TokenBucketStrategy.NAME:
                return TokenBucketStrategy.INSTANCE;
            case SlidingWindowStrategy.NAME:
                return SlidingWindowStrategy.INSTANCE;
            case SlidingLogStrategy.NAME:
                return SlidingLogStrategy.INSTANCE;
            case LeakyBucketStrategy.NAME:
                return LeakyBucketStrategy.INSTANCE;
            case ConcurrencyStrategy.NAME:
                return ConcurrencyStrategy.INSTANCE;
            case AdaptiveStrategy.NAME:
                return AdaptiveStrategy.INSTANCE;
            default: // every constant has a case: a new one without it fails every test that uses it
                throw new IllegalStateException("no instance for strategy " + id);
        }
    }
}
