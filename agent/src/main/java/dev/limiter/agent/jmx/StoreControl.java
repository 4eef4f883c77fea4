package dev.limiter.agent.jmx;

import dev.limiter.agent.store.RedisLimiterFactory;
import dev.limiter.redis.RedisStore;
import dev.limiter.redis.RedisStoreStats;
import dev.limiter.rules.StoreSpec;

/**
 * {@link StoreMXBean} over the factory's active store, read at each call (a reload may have replaced it); zeros
 * and {@code local} while no rule uses Redis.
 */
final class StoreControl implements StoreMXBean {

    private final RedisLimiterFactory factory;

    StoreControl(RedisLimiterFactory factory) {
        this.factory = factory;
    }

    private RedisStoreStats stats() {
        RedisStore store = factory.active();
        return store == null ? null : store.stats();
    }

    @Override
    public String getType() {
        RedisStoreStats stats = stats();
        return stats == null ? StoreSpec.TYPE_LOCAL : stats.getType();
    }

    @Override
    public String getState() {
        RedisStoreStats stats = stats();
        return stats == null ? "up" : stats.getState().name().toLowerCase();
    }

    @Override
    public String getUri() {
        StoreSpec spec = factory.activeSpec();
        return spec.isRedis() ? RedisLimiterFactory.redact(spec) : "";
    }

    @Override
    public String getOnFailure() {
        StoreSpec spec = factory.activeSpec();
        return spec.isRedis() ? spec.onFailure() : "";
    }

    @Override
    public long getRoundTrips() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getRoundTrips();
    }

    @Override
    public long getErrors() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getErrors();
    }

    @Override
    public long getTimeouts() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getTimeouts();
    }

    @Override
    public long getFallbacks() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getFallbacks();
    }

    @Override
    public long getCircuitOpens() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getCircuitOpens();
    }

    @Override
    public long getLatencyP50Micros() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getLatencyP50Micros();
    }

    @Override
    public long getLatencyP90Micros() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getLatencyP90Micros();
    }

    @Override
    public long getLatencyP99Micros() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getLatencyP99Micros();
    }

    @Override
    public long getLatencyP999Micros() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getLatencyP999Micros();
    }

    @Override
    public long getLatencyMaxMicros() {
        RedisStoreStats stats = stats();
        return stats == null ? 0 : stats.getLatencyMaxMicros();
    }

    @Override
    public void resetLatencies() {
        RedisStoreStats stats = stats();
        if (stats != null) {
            stats.resetLatencies();
        }
    }
}
