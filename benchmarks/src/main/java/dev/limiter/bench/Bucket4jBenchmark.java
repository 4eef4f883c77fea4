package dev.limiter.bench;

import io.github.bucket4j.Bandwidth;
import io.github.bucket4j.Bucket;
import java.time.Duration;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * Peer: Bucket4j's local lock-free bucket doing our job, {@code tryConsume(1)} on one shared bucket with the
 * {@link SameLimits} (greedy refill, the closest to our token bucket).
 */
public class Bucket4jBenchmark extends BenchmarkDefaults {

    @Benchmark
    public boolean tryConsume(Allowed state, CallerThread thread) {
        return thread.expectAllowed(state.bucket.tryConsume(1));
    }

    @Benchmark
    public boolean tryConsumeRejected(Exhausted state, CallerThread thread) {
        return thread.expectRejected(state.bucket.tryConsume(1));
    }

    static Bandwidth bandwidth(long limit, Duration window) {
        return Bandwidth.builder().capacity(limit).refillGreedy(limit, window).build();
    }

    /** A bucket through the public builder, as a per-key user makes one; the bandwidth may be shared. */
    static Bucket newBucket(Bandwidth bandwidth) {
        return Bucket.builder().addLimit(bandwidth).build();
    }

    /** A bucket far from empty. */
    @State(Scope.Benchmark)
    public static class Allowed {

        Bucket bucket;

        @Setup
        public void setUp() {
            bucket = newBucket(bandwidth(SameLimits.ALLOWED_LIMIT, SameLimits.ALLOWED_WINDOW));
        }
    }

    /** A bucket whose only token setup took. */
    @State(Scope.Benchmark)
    public static class Exhausted {

        Bucket bucket;

        @Setup
        public void setUp() {
            bucket = newBucket(bandwidth(SameLimits.EXHAUSTED_LIMIT, SameLimits.EXHAUSTED_WINDOW));
            OurLimiters.requireAllowed(bucket.tryConsume(1), "bucket4j");
        }
    }
}
