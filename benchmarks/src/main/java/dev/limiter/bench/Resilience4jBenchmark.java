package dev.limiter.bench;

import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Peer: Resilience4j's {@link AtomicRateLimiter} (its lock-free implementation) doing our job,
 * {@code acquirePermission()} with a zero timeout, so it never parks, on one shared limiter with the
 * {@link SameLimits}.
 */
public class Resilience4jBenchmark extends BenchmarkDefaults {

    @Benchmark
    public boolean acquirePermission(Allowed state, CallerThread thread) {
        return thread.expectAllowed(state.limiter.acquirePermission());
    }

    @Benchmark
    public boolean acquirePermissionRejected(Exhausted state, CallerThread thread) {
        return thread.expectRejected(state.limiter.acquirePermission());
    }

    static AtomicRateLimiter newLimiter(int limit, Duration window) {
        RateLimiterConfig config = RateLimiterConfig.custom()
                .limitForPeriod(limit)
                .limitRefreshPeriod(window)
                .timeoutDuration(Duration.ZERO)
                .build();
        return new AtomicRateLimiter("bench", config);
    }

    /** A limiter far from its limit. */
    @State(Scope.Benchmark)
    public static class Allowed {

        AtomicRateLimiter limiter;

        @Setup
        public void setUp() {
            limiter = newLimiter(SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW);
        }
    }

    /** A limiter whose only permit of the period setup took. */
    @State(Scope.Benchmark)
    public static class Exhausted {

        AtomicRateLimiter limiter;

        @Setup
        public void setUp() {
            limiter = newLimiter(SameLimits.EXHAUSTED_LIMIT, SameLimits.EXHAUSTED_WINDOW);
            OurLimiters.requireAllowed(limiter.acquirePermission(), "resilience4j");
        }
    }
}
