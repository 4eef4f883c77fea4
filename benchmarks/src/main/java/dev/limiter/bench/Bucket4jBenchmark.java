package dev.limiter.bench;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Peer: Bucket4j's local lock-free bucket doing our job, {@code tryConsume(1)} on one shared bucket with the
 * {@link SameLimits} (greedy refill, the closest to our token bucket).
 */
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(BenchmarkDefaults.FORKS)
@Warmup(iterations = BenchmarkDefaults.WARMUP_ITERATIONS, time = 1)
@Measurement(iterations = BenchmarkDefaults.MEASUREMENT_ITERATIONS, time = 1)
public class Bucket4jBenchmark {

    @Benchmark
    public boolean tryConsume(Allowed state) {
        return state.bucket.tryConsume(1);
    }

    @Benchmark
    public boolean tryConsumeRejected(Exhausted state) {
        return state.bucket.tryConsume(1);
    }

    static Bucket newBucket(long limit, java.time.Duration window) {
        return Bucket.builder()
                .addLimit(Bandwidth.builder().capacity(limit).refillGreedy(limit, window).build())
                .build();
    }

    /** A bucket far from empty. */
    @State(Scope.Benchmark)
    public static class Allowed {

        Bucket bucket;

        @Setup
        public void setUp() {
            bucket = newBucket(SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW);
        }

        @TearDown(Level.Iteration)
        public void stillOnTheAllowedPath() {
            OurLimiters.requireAllowed(bucket.tryConsume(1), "bucket4j");
        }
    }

    /** A bucket whose only token setup took. */
    @State(Scope.Benchmark)
    public static class Exhausted {

        Bucket bucket;

        @Setup
        public void setUp() {
            bucket = newBucket(SameLimits.EXHAUSTED_LIMIT, SameLimits.EXHAUSTED_WINDOW);
            OurLimiters.requireAllowed(bucket.tryConsume(1), "bucket4j");
        }

        @TearDown(Level.Iteration)
        public void stillOnTheRejectedPath() {
            OurLimiters.requireRejected(bucket.tryConsume(1), "bucket4j");
        }
    }
}
