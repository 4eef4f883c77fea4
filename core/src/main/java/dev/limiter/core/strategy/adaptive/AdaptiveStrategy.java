package dev.limiter.core.strategy.adaptive;

import dev.limiter.core.Bucket;
import dev.limiter.core.InFlightCount;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;

/**
 * A concurrency limit that finds itself ({@code strategy: adaptive}): admitted calls in flight per key stay below
 * a limit that rises while latency stays near the service's no-load latency and falls when queueing shows, within
 * {@code min-limit} and the rule's limit ({@code max-limit}), starting at {@code initial-limit}. The latency of
 * each admitted call, entry to completion, comes back with its release ({@link #release(Bucket, LimitConfig,
 * long, long)}); {@link AdaptiveBucket} turns windows of them into limit steps with the settings' algorithm.
 *
 * <p>Admission and release are the bulkhead's ({@link InFlightCount}); a sample is one atomic add, and one call in a window's worth moves the limit. No lock, no
 * allocation. A rejection's retry-after is the rule's window, a hint of how long calls take. A rejected call
 * holds no permit, so it gives no sample: the near-zero latency of refused calls never pulls the estimate down.
 *
 * <p>Instances are equal when their settings are: a reload that keeps them keeps each key's learned limit.
 */
public final class AdaptiveStrategy implements RateLimitStrategy {

    public static final String NAME = "adaptive";
    public static final AdaptiveStrategy INSTANCE = new AdaptiveStrategy(AdaptiveSettings.DEFAULTS);

    private final AdaptiveSettings settings;
    private final LimitAlgorithm algorithm;

    private AdaptiveStrategy(AdaptiveSettings settings) {
        this.settings = settings;
        this.algorithm = settings.newAlgorithm();
    }

    /** The strategy for {@code settings} (the shared default instance for the defaults). */
    public static AdaptiveStrategy of(AdaptiveSettings settings) {
        return settings.equals(AdaptiveSettings.DEFAULTS) ? INSTANCE : new AdaptiveStrategy(settings);
    }

    public AdaptiveSettings settings() {
        return settings;
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public boolean usesCapacity() {
        return false;
    }

    @Override
    public void validate(LimitConfig config) {
        if (config.limit() < settings.minLimit()) {
            throw new IllegalArgumentException("max-limit " + config.limit() + " is below min-limit "
                    + settings.minLimit());
        }
    }

    @Override
    public Bucket newBucket(LimitConfig config) {
        long initial = Math.max(settings.minLimit(), Math.min(config.limit(), settings.initialLimit()));
        return new AdaptiveBucket(initial, System.nanoTime());
    }

    @Override
    public boolean check(Bucket bucket, LimitConfig config, long[] out) {
        AdaptiveBucket adaptive = (AdaptiveBucket) bucket;
        long inFlight = InFlightCount.enter(bucket, limit(adaptive, config), config, out);
        if (inFlight == 0) {
            return false;
        }
        adaptive.notePeak(inFlight);
        return true;
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        return InFlightCount.peek(bucket, limit((AdaptiveBucket) bucket, config), config, out);
    }

    /** The learned limit, and a lowered max-limit holds at once. */
    private static long limit(AdaptiveBucket bucket, LimitConfig config) {
        return Math.min(bucket.limit(), config.limit());
    }

    @Override
    public void release(Bucket bucket, LimitConfig config) {
        InFlightCount.leave(bucket);
    }

    @Override
    public boolean samplesLatency() {
        return true;
    }

    @Override
    public void release(Bucket bucket, LimitConfig config, long heldNanos, long nowNanos) {
        release(bucket, config);
        ((AdaptiveBucket) bucket).sample(heldNanos, nowNanos, settings, algorithm, config.limit());
    }

    @Override
    public boolean releasesOnExit() {
        return true;
    }

    @Override
    public boolean isIdle(Bucket bucket, LimitConfig config) {
        return InFlightCount.isIdle(bucket);
    }

    @Override
    public boolean retire(Bucket bucket, LimitConfig config) {
        return InFlightCount.retire(bucket);
    }

    @Override
    public boolean isRetired(Bucket bucket) {
        return InFlightCount.isRetired(bucket);
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof AdaptiveStrategy that && settings.equals(that.settings);
    }

    @Override
    public int hashCode() {
        return settings.hashCode();
    }

    @Override
    public String toString() {
        return NAME;
    }
}
