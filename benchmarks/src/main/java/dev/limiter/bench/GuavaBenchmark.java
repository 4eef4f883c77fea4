package dev.limiter.bench;

import com.google.common.util.concurrent.RateLimiter;
import java.time.Duration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Peer: Guava's {@link RateLimiter} doing our job, {@code tryAcquire()} (no waiting) on one shared limiter with
 * the {@link SameLimits} expressed as permits per second. Guava has no window, only a rate, and it takes a lock
 * on every call: the 2-thread run shows what that costs.
 */
public class GuavaBenchmark extends BenchmarkDefaults {

    @Benchmark
    public boolean tryAcquire(Allowed state, CallerThread thread) {
        return thread.expectAllowed(state.limiter.tryAcquire());
    }

    @Benchmark
    public boolean tryAcquireRejected(Exhausted state, CallerThread thread) {
        return thread.expectRejected(state.limiter.tryAcquire());
    }

    @SuppressWarnings("UnstableApiUsage")
    static RateLimiter newLimiter(int limit, Duration window) {
        return RateLimiter.create(limit * 1_000.0 / window.toMillis());
    }

    /** A limiter far from its rate. */
    @State(Scope.Benchmark)
    public static class Allowed {

        RateLimiter limiter;

        @Setup
        public void setUp() {
            limiter = newLimiter(SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW);
        }
    }

    /** A limiter whose next permit is a day away. */
    @State(Scope.Benchmark)
    public static class Exhausted {

        RateLimiter limiter;

        @Setup
        public void setUp() {
            limiter = newLimiter(SameLimits.EXHAUSTED_LIMIT, SameLimits.EXHAUSTED_WINDOW);
            OurLimiters.requireAllowed(limiter.tryAcquire(), "guava");
        }
    }
}
