package dev.limiter.bench;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One hot key, allowed path: {@link RateLimitStrategy#check} on a single shared bucket, the cost of an admitted
 * call once the key is found. All benchmark threads hit the same bucket, so the 2-thread run measures CAS
 * contention on one key, the worst case.
 *
 * <p>{@code clock} picks where the check reads time: {@code coarse} is the library's default ({@link LimitConfig}
 * left on its shared {@code CoarseClock}, exactly as before this parameter existed), {@code system} is what the
 * agent's rules read ({@code SystemClock}: one {@code System.currentTimeMillis()} per check).
 */
@State(Scope.Benchmark)
public class StrategyBenchmark extends BenchmarkDefaults {

    @Param({"fixed-window", "token-bucket", "sliding-window", "leaky-bucket"})
    String strategy;

    @Param({"coarse", "system"})
    String clock = "coarse";

    private RateLimitStrategy algorithm;
    private LimitConfig config;
    private Bucket bucket;

    @Setup
    public void setUp() {
        algorithm = OurLimiters.strategy(strategy);
        config = OurLimiters.onClock(OurLimiters.allowedConfig(algorithm), clock);
        bucket = algorithm.newBucket(config);
    }

    @Benchmark
    public boolean check(CallerThread thread) {
        return thread.expectAllowed(algorithm.check(bucket, config, thread.out));
    }
}
