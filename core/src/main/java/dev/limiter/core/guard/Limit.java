package dev.limiter.core.guard;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;

/**
 * A handle on one named limit (one bucket), registered once with {@link Guard#limit} and then used on the
 * request path without lookups or allocation.
 *
 * <p>Why a handle and an out array: a result object per call would be garbage on the hot path. The caller
 * passes a reusable {@code long[]} ({@link Outcome#newArray()}, one per thread or call site), or uses the
 * no-argument forms, which fill a per-thread array read back with {@link #lastRemaining()} and
 * {@link #lastRetryAfterMillis()} (a {@link ThreadLocal} lookup, no allocation after the thread's first call).
 */
public final class Limit {

    private static final ThreadLocal<long[]> LAST = ThreadLocal.withInitial(Outcome::newArray);

    private final String name;
    private final RateLimitStrategy strategy;
    private final Bucket bucket;
    private volatile LimitConfig config;

    Limit(String name, RateLimitStrategy strategy, LimitConfig config) {
        strategy.validate(config);
        this.name = name;
        this.strategy = strategy;
        this.config = config;
        this.bucket = strategy.newBucket(config);
    }

    /** Takes one permit; fills {@code out} per {@link Outcome}; true if allowed. */
    public boolean tryAcquire(long[] out) {
        return strategy.check(bucket, config, out);
    }

    /** Takes one permit; the numbers of this decision are then available from the {@code last...} methods. */
    public boolean tryAcquire() {
        return strategy.check(bucket, config, LAST.get());
    }

    /** Gives back the permit of an admitted call (concurrency limits; a no-op for rate limits). */
    public void release() {
        strategy.release(bucket, config);
    }

    /** Permits left now, without taking one; fills {@code out}. */
    public long remaining(long[] out) {
        return strategy.peek(bucket, config, out);
    }

    /** Permits left now, without taking one. */
    public long remaining() {
        return strategy.peek(bucket, config, LAST.get());
    }

    /** Remaining permits after this thread's last decision on any limit. */
    public static long lastRemaining() {
        return LAST.get()[Outcome.REMAINING];
    }

    /** Milliseconds to wait after this thread's last rejection (0 after an admission). */
    public static long lastRetryAfterMillis() {
        return LAST.get()[Outcome.RETRY_AFTER_MILLIS];
    }

    /** Applies new limits from the next call on (the state carries over per strategy). */
    public void reconfigure(LimitConfig config) {
        strategy.validate(config);
        this.config = config;
    }

    public String name() {
        return name;
    }

    public LimitConfig config() {
        return config;
    }

    public RateLimitStrategy strategy() {
        return strategy;
    }

    @Override
    public String toString() {
        return "Limit[" + name + ", " + strategy.name() + ", " + config + "]";
    }
}
