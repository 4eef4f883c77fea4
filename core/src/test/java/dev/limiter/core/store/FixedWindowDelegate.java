package dev.limiter.core.store;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.strategy.FixedWindowStrategy;

/**
 * The fixed window, every method passed through, for store tests that watch or hold one of them (the eviction
 * hand's {@code retire}, say) by overriding it and calling {@code super}.
 */
abstract class FixedWindowDelegate implements RateLimitStrategy {

    private static final FixedWindowStrategy FIXED = FixedWindowStrategy.INSTANCE;

    @Override
    public Bucket newBucket(LimitConfig config) {
        return FIXED.newBucket(config);
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        return FIXED.check(bucket, config, out);
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        return FIXED.peek(bucket, config, out);
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return FIXED.isIdle(bucket, config);
    }

    @Override
    public boolean retire(Bucket bucket, LimitConfig config) {
        return FIXED.retire(bucket, config);
    }

    @Override
    public boolean isRetired(Bucket bucket) {
        return FIXED.isRetired(bucket);
    }
}
