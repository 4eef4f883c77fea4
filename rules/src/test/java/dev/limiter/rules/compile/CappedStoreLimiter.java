package dev.limiter.rules.compile;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.rules.LimiterFactory;

/**
 * A limiter whose store has a range of its own, narrower than the strategy's: in-JVM state, but
 * {@link #reconfigure} refuses limits above a cap, as the Redis store refuses a configuration its script cannot
 * compute exactly. The rules module cannot depend on the Redis module, and its validation cannot foresee such a
 * refusal; this is how the tests make a surviving rule's limiter refuse new limits half-way through a reload.
 */
final class CappedStoreLimiter implements KeyedLimiter {

    private final LocalKeyedLimiter local;
    private final long cap;

    CappedStoreLimiter(RateLimitStrategy strategy, LimitConfig config, int maxKeys, long cap) {
        this.local = LocalKeyedLimiter.create(strategy, config, maxKeys);
        this.cap = cap;
    }

    /** A factory giving every rule such a limiter. */
    static LimiterFactory factory(long cap) {
        return (ruleId, store, strategy, config, maxKeys, onFull) -> new CappedStoreLimiter(strategy, config, maxKeys, cap);
    }

    @Override
    public void reconfigure(LimitConfig config) {
        if (config.limit() > cap) {
            throw new IllegalArgumentException("this store holds at most " + cap + " per window");
        }
        local.reconfigure(config);
    }

    @Override
    public boolean tryAcquire(String key, long[] out) {
        return local.tryAcquire(key, out);
    }

    @Override
    public void release(String key) {
        local.release(key);
    }

    @Override
    public long remaining(String key, long[] out) {
        return local.remaining(key, out);
    }

    @Override
    public int activeKeys() {
        return local.activeKeys();
    }

    @Override
    public void reset() {
        local.reset();
    }

    @Override
    public void resetKey(String key) {
        local.resetKey(key);
    }

    @Override
    public LimitConfig config() {
        return local.config();
    }

    @Override
    public RateLimitStrategy strategy() {
        return local.strategy();
    }
}
