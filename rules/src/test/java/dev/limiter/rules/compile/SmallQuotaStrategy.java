package dev.limiter.rules.compile;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.strategy.FixedWindowStrategy;

/**
 * A custom SPI strategy for the rules tests, registered in {@code META-INF/services}: a fixed window whose own
 * {@link #validate} refuses what a narrower backend could not hold (more than {@value #MAX_LIMIT} per window, a
 * burst capacity above twice the limit). It exists so the compiler's handling of a strategy's refusal is tested
 * with a strategy the compiler knows nothing about, not only with the built-in sliding window.
 */
public final class SmallQuotaStrategy implements RateLimitStrategy {

    static final String NAME = "small-quota";
    static final long MAX_LIMIT = 1_000;

    private final RateLimitStrategy window = FixedWindowStrategy.INSTANCE;

    /** Public no-arg constructor, as {@link java.util.ServiceLoader} requires. */
    public SmallQuotaStrategy() {
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public void validate(LimitConfig config) {
        if (config.limit() > MAX_LIMIT) {
            throw new IllegalArgumentException(NAME + " counts at most " + MAX_LIMIT + " per window, not "
                    + config.limit());
        }
        if (config.capacity() > 2 * config.limit()) {
            throw new IllegalArgumentException(NAME + " allows a capacity of at most twice the limit, not "
                    + config.capacity());
        }
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        return window.newBucket(config);
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        return window.check(bucket, config, out);
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        return window.peek(bucket, config, out);
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return window.isIdle(bucket, config);
    }
}
