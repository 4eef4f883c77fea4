package dev.limiter.core.strategy.adaptive;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;

/**
 * A service of {@code capacity} workers, {@code baseNanos} per call, in front of which an adaptive bucket admits
 * calls: in each round the offered calls are checked, the admitted ones run at once, and each takes
 * {@code base x max(1, admitted / capacity)} (they queue for the workers beyond the capacity). Synthetic time, so
 * a scenario of minutes runs in milliseconds and gives the same answer every time.
 */
final class QueueingService {

    final AdaptiveStrategy strategy;
    final LimitConfig config;
    final Bucket bucket;
    private final long capacity;
    long baseNanos;
    private long now = 1_000_000_000L;
    private final long[] out = Outcome.newArray();

    QueueingService(AdaptiveSettings settings, long maxLimit, long capacity, long baseNanos) {
        this.strategy = AdaptiveStrategy.of(settings);
        this.config = LimitConfig.of(maxLimit, 1_000).withClock(new ManualClock());
        this.bucket = new AdaptiveBucket(Math.max(settings.minLimit(), Math.min(maxLimit, settings.initialLimit())),
                now);
        this.capacity = capacity;
        this.baseNanos = baseNanos;
    }

    AdaptiveBucket adaptive() {
        return (AdaptiveBucket) bucket;
    }

    /** One round of {@code offered} calls; returns how many were admitted. */
    long round(long offered) {
        long admitted = 0;
        for (long i = 0; i < offered; i++) {
            if (strategy.check(bucket, config, out)) {
                admitted++;
            }
        }
        long latency = baseNanos * Math.max(capacity, admitted) / capacity;
        now += latency;
        for (long i = 0; i < admitted; i++) {
            strategy.release(bucket, config, latency, now);
        }
        return admitted;
    }

    /** Rounds of {@code offered} calls for {@code seconds} of synthetic time; returns the highest limit seen. */
    long run(long offered, double seconds) {
        long end = now + (long) (seconds * 1e9);
        long highest = 0;
        while (now < end) {
            round(offered);
            highest = Math.max(highest, adaptive().limit());
        }
        return highest;
    }

    /** Moves the clock without any call (a quiet period). */
    void idle(long nanos) {
        now += nanos;
    }

    long now() {
        return now;
    }

    /** Releases one call that started {@code heldNanos} ago (a health check, a slow call). */
    void single(long heldNanos) {
        if (strategy.check(bucket, config, out)) {
            now += heldNanos;
            strategy.release(bucket, config, heldNanos, now);
        }
    }
}
