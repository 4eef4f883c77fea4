package dev.limiter.core.strategy.adaptive;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;

/**
 * A concurrency limit that finds itself ({@code strategy: adaptive}): admitted calls in flight per key stay below
 * a limit that rises while latency stays near the service's no-load latency and falls when queueing shows, within
 * {@code min-limit} and the rule's limit ({@code max-limit}), starting at {@code initial-limit}. The latency of
 * each admitted call, entry to completion, comes back with its release ({@link #release(Bucket, LimitConfig,
 * long, long)}); {@link AdaptiveBucket} turns windows of them into limit steps with the settings' algorithm.
 *
 * <p>Admission and release are the bulkhead's (CAS on the calls in flight, never below 0, a retired bucket
 * admits nothing); a sample is one atomic add, and one call in a window's worth moves the limit. No lock, no
 * allocation. A rejection's retry-after is the rule's window, a hint of how long calls take. A rejected call
 * holds no permit, so it gives no sample: the near-zero latency of refused calls never pulls the estimate down.
 *
 * <p>Instances are equal when their settings are: a reload that keeps them keeps each key's learned limit.
 */
public final class AdaptiveStrategy implements RateLimitStrategy {

    public static final String NAME = "adaptive";
    public static final AdaptiveStrategy INSTANCE = new AdaptiveStrategy(AdaptiveSettings.DEFAULTS);

    /** Slot 0 value of a retired bucket. */
    static final long RETIRED = Long.MIN_VALUE;

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
        long limit = Math.min(adaptive.limit(), config.limit()); // a lowered max-limit holds at once
        for (;;) {
            long inFlight = bucket.slot0();
            if (inFlight < 0 || inFlight >= limit) {
                return Outcome.reject(out, 0, config.clock().millis(), config.windowMillis(), limit);
            }
            if (bucket.casSlot0(inFlight, inFlight + 1)) {
                adaptive.notePeak(inFlight + 1);
                return Outcome.allow(out, limit - inFlight - 1, config.clock().millis(), limit);
            }
        }
    }

    @Override
    public long peek(Bucket bucket, LimitConfig config, long[] out) {
        long limit = Math.min(((AdaptiveBucket) bucket).limit(), config.limit());
        long inFlight = Math.max(0, bucket.slot0());
        long remaining = inFlight >= limit ? 0 : limit - inFlight;
        long now = config.clock().millis();
        if (remaining == 0) {
            Outcome.reject(out, 0, now, config.windowMillis(), limit);
        } else {
            Outcome.allow(out, remaining, now, limit);
        }
        return remaining;
    }

    @Override
    public void release(Bucket bucket, LimitConfig config) {
        for (;;) {
            long inFlight = bucket.slot0();
            if (inFlight <= 0 || bucket.casSlot0(inFlight, inFlight - 1)) {
                return;
            }
        }
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
        return bucket.slot0() <= 0;
    }

    @Override
    public boolean retire(Bucket bucket, LimitConfig config) {
        for (;;) {
            long inFlight = bucket.slot0();
            if (inFlight == RETIRED) {
                return true;
            }
            if (inFlight != 0) {
                return false;
            }
            if (bucket.casSlot0(0, RETIRED)) {
                return true;
            }
        }
    }

    @Override
    public boolean isRetired(Bucket bucket) {
        return bucket.slot0() == RETIRED;
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
