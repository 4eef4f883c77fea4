package dev.limiter.bench;

import io.github.resilience4j.ratelimiter.RateLimiterConfig;
import io.github.resilience4j.ratelimiter.internal.AtomicRateLimiter;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Peer: Resilience4j's {@link AtomicRateLimiter} (its lock-free implementation) doing our job,
 * {@code acquirePermission()} with a zero timeout, so it never parks, on one shared limiter with the
 * {@link SameLimits}.
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(BenchmarkDefaults.FORKS)
@Warmup(iterations = BenchmarkDefaults.WARMUP_ITERATIONS, time = 1)
@Measurement(iterations = BenchmarkDefaults.MEASUREMENT_ITERATIONS, time = 1)
public class Resilience4jBenchmark {

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
