package dev.limiter.bench;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * One hot key whose budget is spent: what a rejection costs, the path an attack or a runaway client drives. It
 * must stay as cheap and allocation-free as the allowed path, including the retry-after arithmetic. For the
 * concurrency strategy setup holds the only permit and never releases it.
 */
@State(Scope.Benchmark)
public class RejectedStrategyBenchmark extends BenchmarkDefaults {

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
