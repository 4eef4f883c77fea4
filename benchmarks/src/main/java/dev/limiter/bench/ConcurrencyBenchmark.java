package dev.limiter.bench;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The concurrency (bulkhead) strategy on one hot key: a whole guarded call is an acquire on entry plus a
 * release on exit, so that pair is the unit measured, the allowed path (more permits than threads). Beside it the
 * adaptive limit, whose release also carries the call's latency (two clock reads, as the agent takes them, and
 * the sample's atomic add; a window closes now and then).
 */
@State(Scope.Benchmark)
public class ConcurrencyBenchmark extends BenchmarkDefaults {

    private RateLimitStrategy algorithm;
    private LimitConfig config;
    private Bucket bucket;
    private RateLimitStrategy adaptive;
    private LimitConfig adaptiveConfig;
    private Bucket adaptiveBucket;

    @Setup
    public void setUp() {
        algorithm = OurLimiters.strategy("concurrency");
        config = OurLimiters.allowedConfig(algorithm);
        bucket = algorithm.newBucket(config);
        adaptive = OurLimiters.strategy("adaptive");
        adaptiveConfig = OurLimiters.allowedConfig(adaptive);
        adaptiveBucket = adaptive.newBucket(adaptiveConfig);
    }

    @Benchmark
    public boolean adaptiveAcquireRelease(CallerThread thread) {
        boolean admitted = adaptive.check(adaptiveBucket, adaptiveConfig, thread.out);
        if (admitted) {
            long start = System.nanoTime();
            long end = System.nanoTime();
            adaptive.release(adaptiveBucket, adaptiveConfig, end - start, end);
        }
        return thread.expectAllowed(admitted);
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
