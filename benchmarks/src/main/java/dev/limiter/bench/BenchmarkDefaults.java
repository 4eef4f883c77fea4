package dev.limiter.bench;

/**
 * Why every benchmark class carries the same JMH annotations: one fork, 3 x 1 s warm-up, 5 x 1 s measurement,
 * average time in nanoseconds. That keeps the whole suite (about 35 runs at 1 and 2 threads) under ten minutes
 * on two cores, as {@code scripts/bench-core} promises, while each run still reaches C2's steady state. A command
 * line {@code -f/-wi/-i} overrides it for a longer run.
 */
final class BenchmarkDefaults {

    static final int FORKS = 1;
    static final int WARMUP_ITERATIONS = 3;
    static final int MEASUREMENT_ITERATIONS = 5;

    private BenchmarkDefaults() {
    }
}
