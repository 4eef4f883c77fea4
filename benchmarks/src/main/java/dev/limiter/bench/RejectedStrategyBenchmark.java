package dev.limiter.bench;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * One hot key whose budget is spent: what a rejection costs, the path an attack or a runaway client drives. It
 * must stay as cheap and allocation-free as the allowed path, including the retry-after arithmetic. For the
 * concurrency strategy setup holds the only permit and never releases it.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Fork(BenchmarkDefaults.FORKS)
@Warmup(iterations = BenchmarkDefaults.WARMUP_ITERATIONS, time = 1)
@Measurement(iterations = BenchmarkDefaults.MEASUREMENT_ITERATIONS, time = 1)
public class RejectedStrategyBenchmark {

    @Param({"fixed-window", "token-bucket", "sliding-window", "leaky-bucket", "concurrency"})
    String strategy;

    private RateLimitStrategy algorithm;
    private LimitConfig config;
    private Bucket bucket;

    @Setup
    public void setUp() {
        algorithm = OurLimiters.strategy(strategy);
        config = OurLimiters.exhaustedConfig(algorithm);
        bucket = algorithm.newBucket(config);
        OurLimiters.requireAllowed(algorithm.check(bucket, config, Outcome.newArray()), strategy);
    }

    @Benchmark
    public boolean check(CallerThread thread) {
        return thread.expectRejected(algorithm.check(bucket, config, thread.out));
    }
}
