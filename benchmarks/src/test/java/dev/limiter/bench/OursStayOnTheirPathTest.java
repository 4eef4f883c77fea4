package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.strategy.ConcurrencyStrategy;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Our benchmarks measure what their names say for every strategy they are parameterised with: the allowed
 * benchmarks admit every call, the rejected ones reject every call, and the per-thread tally agrees. Also
 * fails if a strategy name in a {@code @Param} list stops resolving.
 */
class OursStayOnTheirPathTest {

    private static final int CALLS = 10_000;

    @ParameterizedTest
    @ValueSource(strings = {"fixed-window", "token-bucket", "sliding-window", "leaky-bucket"})
    void allowedPathAdmitsEveryCall(String strategy) {
        for (String clock : new String[] {"coarse", "system"}) {
            StrategyBenchmark benchmark = new StrategyBenchmark();
            benchmark.strategy = strategy;
            benchmark.clock = clock;
            benchmark.setUp();
            CallerThread thread = new CallerThread();
            for (int i = 0; i < CALLS; i++) {
                assertThat(benchmark.check(thread)).as("%s on the %s clock", strategy, clock).isTrue();
            }
            assertThat(thread.unexpected()).isZero();
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"sliding-log:100", "sliding-log:10000", "sliding-window:2000000"})
    void theSlidingLogComparisonAdmitsEveryCall(String strategy) {
        SlidingLogBenchmark benchmark = new SlidingLogBenchmark();
        benchmark.strategy = strategy;
        benchmark.setUp();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.tryAcquire(thread)).as(strategy).isTrue();
        }
        assertThat(thread.unexpected()).isZero();
    }

    @Test
    void unknownClockFailsSetUp() {
        StrategyBenchmark benchmark = new StrategyBenchmark();
        benchmark.strategy = "fixed-window";
        benchmark.clock = "sundial";
        assertThatThrownBy(benchmark::setUp)
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("sundial");
    }

    @ParameterizedTest
    @ValueSource(strings = {"fixed-window", "token-bucket", "sliding-window", "leaky-bucket", "concurrency"})
    void rejectedPathRejectsEveryCall(String strategy) {
        RejectedStrategyBenchmark benchmark = new RejectedStrategyBenchmark();
        benchmark.strategy = strategy;
        benchmark.setUp();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.check(thread)).isFalse();
        }
        assertThat(thread.unexpected()).isZero();
    }

    @Test
    void concurrencyAcquireReleaseAdmitsEveryCallAndReturnsItsPermit() {
        ConcurrencyBenchmark benchmark = new ConcurrencyBenchmark();
        benchmark.setUp();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.acquireRelease(thread)).isTrue();
        }
        assertThat(thread.unexpected()).isZero();
    }

    @Test
    void keyedLimiterAdmitsEveryCallOnTheExistingKey() {
        KeyedLimiterBenchmark benchmark = new KeyedLimiterBenchmark();
        benchmark.setUp();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.tryAcquireExistingKey(thread)).isTrue();
        }
        assertThat(thread.unexpected()).isZero();
    }

    @Test
    void caffeineStoreAdmitsEveryCallOnTheExistingKey() {
        KeyedLimiterBenchmark benchmark = new KeyedLimiterBenchmark();
        benchmark.setUp();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.tryAcquireExistingKeyCaffeine(thread)).isTrue();
        }
        assertThat(thread.unexpected()).isZero();
    }

    @ParameterizedTest
    @ValueSource(strings = {"local", "caffeine"})
    void aFloodOfNewKeysIsAdmittedAndTheStoreStaysBounded(String store) {
        NewKeyBenchmark benchmark = new NewKeyBenchmark();
        benchmark.store = store;
        benchmark.setUp();
        NewKeyBenchmark.NewKeyCursor cursor = new NewKeyBenchmark.NewKeyCursor();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < 3 * NewKeyBenchmark.MAX_KEYS; i++) {
            assertThat(benchmark.tryAcquireNewKeyWhenFull(cursor, thread)).isTrue();
        }
        assertThat(thread.unexpected()).isZero();
        KeyedLimiter limiter = benchmark.limiter();
        if (limiter instanceof CaffeineKeyedLimiter caffeine) {
            caffeine.cleanUp(); // Caffeine evicts in amortised maintenance
        }
        assertThat(limiter.activeKeys()).isLessThanOrEqualTo(NewKeyBenchmark.MAX_KEYS);
    }

    @Test
    void theCaffeineStoreRefusesABulkhead() {
        assertThatThrownBy(() -> new CaffeineKeyedLimiter(ConcurrencyStrategy.INSTANCE, LimitConfig.of(1, 1000), 10))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void facadeAdmitsEveryCallInAllThreeForms() {
        GuardBenchmark benchmark = new GuardBenchmark();
        benchmark.setUp();
        CallerThread thread = new CallerThread();
        for (int i = 0; i < CALLS; i++) {
            assertThat(benchmark.limitTryAcquire(thread)).isTrue();
            assertThat(benchmark.limitTryAcquireThreadLocalOut(thread)).isTrue();
            assertThat(benchmark.lookUpByNameThenTryAcquire(thread)).isTrue();
        }
        assertThat(thread.unexpected()).isZero();
    }
}
