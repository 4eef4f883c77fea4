package dev.limiter.bench;

import com.github.benmanes.caffeine.cache.Cache;
import com.github.benmanes.caffeine.cache.Caffeine;
import dev.limiter.core.Bucket;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import java.util.function.Function;

/**
 * The keyed store built the other way the issue suggests: buckets in a Caffeine cache bounded by
 * {@code maximumSize} (W-TinyLFU eviction), so {@code LocalKeyedLimiter}'s hand-made bound and sampled sweep can
 * be compared with it on the same JMH path and in bytes per key.
 *
 * <p>Only what the comparison needs: rate strategies. A bulkhead is out of reach by design, not by omission:
 * Caffeine evicts on its own schedule and cannot be vetoed, so a bucket with calls in flight could leave the
 * cache and its permits with it (the hand-made store retires such buckets only when idle). The bucket factory is
 * a field, not a lambda per call, so an existing key costs what Caffeine costs and nothing of ours.
 *
 * @see dev.limiter.core.store.LocalKeyedLimiter
 */
final class CaffeineKeyedLimiter implements KeyedLimiter {

    private final RateLimitStrategy strategy;
    private final Cache<String, Bucket> buckets;
    private final Function<String, Bucket> newBucket;
    private volatile LimitConfig config;

    CaffeineKeyedLimiter(RateLimitStrategy strategy, LimitConfig config, int maxKeys) {
        if (strategy.releasesOnExit()) {
            throw new IllegalArgumentException("a Caffeine store cannot keep a bulkhead's permits: " + strategy);
        }
        strategy.validate(config);
        this.strategy = strategy;
        this.config = config;
        this.buckets = Caffeine.newBuilder().maximumSize(maxKeys).build();
        this.newBucket = key -> strategy.newBucket(this.config);
    }

    @Override
    public boolean tryAcquire(String key, long[] out) {
        return strategy.check(buckets.get(key, newBucket), config, out);
    }

    @Override
    public void release(String key) {
        // rate strategies only (see the class comment)
    }

    @Override
    public long remaining(String key, long[] out) {
        LimitConfig cfg = config;
        Bucket bucket = buckets.getIfPresent(key);
        return strategy.peek(bucket == null ? strategy.newBucket(cfg) : bucket, cfg, out);
    }

    @Override
    public int activeKeys() {
        return (int) buckets.estimatedSize();
    }

    /** Runs Caffeine's pending maintenance (eviction is amortised over later calls), for exact counts. */
    void cleanUp() {
        buckets.cleanUp();
    }

    @Override
    public void reset() {
        buckets.invalidateAll();
    }

    @Override
    public void resetKey(String key) {
        buckets.invalidate(key);
    }

    @Override
    public LimitConfig config() {
        return config;
    }

    @Override
    public RateLimitStrategy strategy() {
        return strategy;
    }

    @Override
    public void reconfigure(LimitConfig config) {
        strategy.validate(config);
        this.config = config;
    }
}
