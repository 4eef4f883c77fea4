package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our benchmarks measure what their names say for every strategy they are parameterised with: the allowed
 * benchmarks admit every call, the rejected ones reject every call, and the per-iteration guards agree. Also
 * fails if a strategy name in a {@code @Param} list stops resolving.
 */
class OursStayOnTheirPathTest {

    private static final int CALLS = 10_000;

    @ParameterizedTest
    @ValueSource(strings = {"fixed-window", "token-bucket", "sliding-window", "leaky-bucket"})
    void allowedPathAdmitsEveryCall(String strategy) {
        StrategyBenchmark benchmark = new StrategyBenchmark();
        benchmark.strategy = strategy;
        benchmark.setUp();
        ThreadOut thread = new ThreadOut();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.check(thread)).isTrue();
        }
        benchmark.stillOnTheAllowedPath();
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixed-window", "token-bucket", "sliding-window", "leaky-bucket", "concurrency"})
    void rejectedPathRejectsEveryCall(String strategy) {
        RejectedStrategyBenchmark benchmark = new RejectedStrategyBenchmark();
        benchmark.strategy = strategy;
        benchmark.setUp();
        ThreadOut thread = new ThreadOut();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.check(thread)).isFalse();
        }
        benchmark.stillOnTheRejectedPath();
    }

    @Test
    void concurrencyAcquireReleaseAdmitsEveryCallAndReturnsItsPermit() {
        ConcurrencyBenchmark benchmark = new ConcurrencyBenchmark();
        benchmark.setUp();
        ThreadOut thread = new ThreadOut();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.acquireRelease(thread)).isTrue();
        }
        benchmark.stillOnTheAllowedPath();
    }
}
