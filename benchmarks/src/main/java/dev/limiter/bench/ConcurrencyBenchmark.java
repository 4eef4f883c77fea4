package dev.limiter.bench;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
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
 * The concurrency (bulkhead) strategy on one hot key: a whole guarded call is an acquire on entry plus a
 * release on exit, so that pair is the unit measured, the allowed path (more permits than threads).
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(BenchmarkDefaults.FORKS)
@Warmup(iterations = BenchmarkDefaults.WARMUP_ITERATIONS, time = 1)
@Measurement(iterations = BenchmarkDefaults.MEASUREMENT_ITERATIONS, time = 1)
public class ConcurrencyBenchmark {

    private RateLimitStrategy algorithm;
    private LimitConfig config;
    private Bucket bucket;

    @Setup
    public void setUp() {
        algorithm = OurLimiters.strategy("concurrency");
        config = OurLimiters.allowedConfig(algorithm);
        bucket = algorithm.newBucket(config);
    }

    @Benchmark
    public boolean acquireRelease(CallerThread thread) {
        boolean admitted = algorithm.check(bucket, config, thread.out);
        if (admitted) {
            algorithm.release(bucket, config);
        }
        return thread.expectAllowed(admitted);
    }
}
