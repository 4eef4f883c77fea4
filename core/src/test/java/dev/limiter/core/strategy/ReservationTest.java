package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.store.LocalKeyedLimiter;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reservations (waiting for a permit instead of being rejected) on the strategies that know exactly when permits
 * accrue. Every time is read from the returned waits against a frozen {@link ManualClock}: the scheduled time of a
 * reservation is the clock reading plus its wait, so nothing here depends on how fast the machine runs.
 */
class ReservationTest {

    private static final long START = 1_767_225_600_000L;
    private static final long MS = 1_000_000L;

    private final ManualClock clock = new ManualClock(START);
    private final long[] out = Outcome.newArray();

    static Stream<RateLimitStrategy> reserving() {
        return Stream.of(TokenBucketStrategy.INSTANCE, LeakyBucketStrategy.INSTANCE);
    }

    @ParameterizedTest
    @MethodSource("reserving")
    void aWaitLongerThanMaxWaitIsRejectedAtOnceAndTakesNothing(RateLimitStrategy strategy) {
        LimitConfig config = LimitConfig.of(10, 1000).withClock(clock); // burst 10, then one per 100 ms
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 10; i++) {
            assertThat(strategy.reserve(bucket, config, 1, 250 * MS, out)).isZero();
        }
        assertThat(strategy.reserve(bucket, config, 1, 250 * MS, out)).isEqualTo(100 * MS);
        assertThat(strategy.reserve(bucket, config, 1, 250 * MS, out)).isEqualTo(200 * MS);
        // 300 ms > 250 ms: rejected, told when a reservation would fit
        assertThat(strategy.reserve(bucket, config, 1, 250 * MS, out)).isEqualTo(RateLimitStrategy.REJECTED);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(50);
        // and it took nothing: the next one (allowed to wait longer) gets the 300 ms slot
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(300 * MS);
        // a cost of 3 needs 3 more intervals
        assertThat(strategy.reserve(bucket, config, 3, 1000 * MS, out)).isEqualTo(600 * MS);
        assertThat(strategy.reserve(bucket, config, 1, 599 * MS, out)).isEqualTo(RateLimitStrategy.REJECTED);
        assertThat(strategy.reserve(bucket, config, 1, 700 * MS, out)).isEqualTo(700 * MS);
    }

    @ParameterizedTest
    @MethodSource("reserving")
    void subMillisecondRatesAreSpacedExactlyInFairOrder(RateLimitStrategy strategy) {
        LimitConfig config = LimitConfig.of(10_000, 1000).withCapacity(1).withClock(clock); // one per 0.1 ms
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 5_000; i++) {
            // with the clock frozen each reservation waits exactly one interval more than the one before
            assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(i * 100_000L);
        }
        clock.advance(200); // 200 ms later: 2,000 of the 5,000 slots have passed, 2,999 are still ahead
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(300 * MS);
    }

    @ParameterizedTest
    @MethodSource("reserving")
    void oddRatesRoundTheWaitUpToTheNanosecondNeverDown(RateLimitStrategy strategy) {
        LimitConfig config = LimitConfig.of(3, 1000).withCapacity(1).withClock(clock); // 333,333,333.3 ns
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isZero();
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(333_333_334L);
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(666_666_667L);
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(1000 * MS);
    }

    @ParameterizedTest
    @MethodSource("reserving")
    void aRefundedReservationIsTheNextCallersSlot(RateLimitStrategy strategy) {
        LimitConfig config = LimitConfig.of(10, 1000).withCapacity(1).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isZero();
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(100 * MS);
        long interrupted = strategy.reserve(bucket, config, 1, 1000 * MS, out);
        assertThat(interrupted).isEqualTo(200 * MS);
        strategy.refund(bucket, config, 1, 0); // the waiter was interrupted: its slot goes back
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(200 * MS);
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(300 * MS);
    }

    @ParameterizedTest
    @MethodSource("reserving")
    void aClockStepBackNeverMakesAWaitLongerThanMaxWait(RateLimitStrategy strategy) {
        LimitConfig config = LimitConfig.of(10, 1000).withCapacity(1).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 5; i++) {
            strategy.reserve(bucket, config, 1, 1000 * MS, out);
        }
        clock.advance(-3_600_000); // an hour back: the reservations now look an hour further ahead
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(RateLimitStrategy.REJECTED);
        // read as one minute ahead (the longest max-wait), not an hour: a minute later waiting works again
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isLessThanOrEqualTo(60_000);
        clock.advance(59_500);
        long wait = strategy.reserve(bucket, config, 1, 1000 * MS, out);
        assertThat(wait).isBetween(0L, 1000 * MS);
    }

    /**
     * 200 threads reserve against one bucket with max-wait 10 s and a frozen clock: exactly the permits of 10 s
     * at the rate are granted (within 1 %, here exact), each at a distinct time one interval apart.
     */
    @ParameterizedTest
    @MethodSource("reserving")
    void concurrentCallersAreGrantedExactlyTheRate(RateLimitStrategy strategy) throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(200);
        try {
            checkRate(strategy, pool, 200);
        } finally {
            pool.shutdownNow();
        }
    }

    @ParameterizedTest
    @MethodSource("reserving")
    void virtualThreadCallersAreGrantedExactlyTheRate(RateLimitStrategy strategy) throws Exception {
        assumeThat(Runtime.version().feature()).isGreaterThanOrEqualTo(21);
        ExecutorService pool = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
        try {
            checkRate(strategy, pool, 1000);
        } finally {
            pool.shutdownNow();
        }
    }

    private void checkRate(RateLimitStrategy strategy, ExecutorService pool, int callers) throws Exception {
        LimitConfig config = LimitConfig.of(1000, 1000).withCapacity(1).withClock(clock); // one per ms
        Bucket bucket = strategy.newBucket(config);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<Long>>> results = new ArrayList<>();
        for (int t = 0; t < callers; t++) {
            results.add(pool.submit(() -> {
                long[] mine = Outcome.newArray();
                List<Long> waits = new ArrayList<>();
                start.await();
                for (int i = 0; i < 100; i++) {
                    long wait = strategy.reserve(bucket, config, 1, 10_000 * MS, mine);
                    if (wait != RateLimitStrategy.REJECTED) {
                        waits.add(wait);
                    }
                }
                return waits;
            }));
        }
        start.countDown();
        List<Long> granted = new ArrayList<>();
        for (Future<List<Long>> result : results) {
            granted.addAll(result.get());
        }
        // every 1 ms from now to 10 s ahead, both ends included
        assertThat(granted).hasSize(10_001);
        Collections.sort(granted);
        for (int i = 0; i < granted.size(); i++) {
            assertThat(granted.get(i)).isEqualTo(i * MS);
        }
    }

    @Test
    void strategiesThatCannotTellWhenRefuse() {
        LimitConfig config = LimitConfig.of(10, 1000).withClock(clock);
        for (RateLimitStrategy strategy : List.of(SlidingWindowStrategy.INSTANCE, ConcurrencyStrategy.INSTANCE)) {
            assertThat(strategy.reserves()).as(strategy.name()).isFalse();
            Bucket bucket = strategy.newBucket(config);
            assertThatThrownBy(() -> strategy.reserve(bucket, config, 1, MS, out))
                    .isInstanceOf(UnsupportedOperationException.class);
        }
        assertThat(TokenBucketStrategy.INSTANCE.reserves()).isTrue();
        assertThat(LeakyBucketStrategy.INSTANCE.reserves()).isTrue();
        assertThat(FixedWindowStrategy.INSTANCE.reserves()).isTrue(); // FixedWindowReservationTest
    }

    @Test
    void theKeyedStoreReservesPerKey() {
        LimitConfig config = LimitConfig.of(10, 1000).withCapacity(1).withClock(clock);
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(TokenBucketStrategy.INSTANCE, config, 100);
        assertThat(limiter.reserve("a", 1, 1000 * MS, out)).isZero();
        assertThat(limiter.reserve("a", 1, 1000 * MS, out)).isEqualTo(100 * MS);
        assertThat(limiter.reserve("b", 1, 1000 * MS, out)).isZero();
        limiter.refund("a", 1, 0);
        assertThat(limiter.reserve("a", 1, 1000 * MS, out)).isEqualTo(100 * MS);
        assertThat(limiter.reserve("a", 1, 50 * MS, out)).isEqualTo(RateLimitStrategy.REJECTED);
    }
}
