package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.store.LocalKeyedLimiter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

/**
 * Reservations on the fixed window: a call that finds its window full waits for the first later window with
 * room. Every time is read from the returned waits against a frozen {@link ManualClock}, so nothing here depends
 * on how fast the machine runs.
 */
class FixedWindowReservationTest {

    /** A whole second: windows of 1 s start on it. */
    private static final long START = 1_767_225_600_000L;
    private static final long MS = 1_000_000L;

    private final FixedWindowStrategy strategy = FixedWindowStrategy.INSTANCE;
    private final ManualClock clock = new ManualClock(START + 250);
    private final long[] out = Outcome.newArray();

    @Test
    void aFullWindowWaitsExactlyForTheStartOfTheNextWindowWithRoom() {
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 3; i++) {
            assertThat(strategy.reserve(bucket, config, 1, 2000 * MS, out)).isZero();
            assertThat(out[Outcome.STAMP]).isEqualTo(START / 1000);
        }
        assertThat(out[Outcome.REMAINING]).isZero();
        for (int i = 0; i < 3; i++) { // the next window starts in 750 ms
            assertThat(strategy.reserve(bucket, config, 1, 2000 * MS, out)).isEqualTo(750 * MS);
            assertThat(out[Outcome.STAMP]).isEqualTo(START / 1000 + 1);
            assertThat(out[Outcome.REMAINING]).isEqualTo(2 - i);
        }
        for (int i = 0; i < 3; i++) {
            assertThat(strategy.reserve(bucket, config, 1, 2000 * MS, out)).isEqualTo(1750 * MS);
        }
        // the window after starts in 2,750 ms > 2 s: rejected, told when a reservation would fit, and took nothing
        assertThat(strategy.reserve(bucket, config, 1, 2000 * MS, out)).isEqualTo(RateLimitStrategy.REJECTED);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(750);
        assertThat(strategy.reserve(bucket, config, 2, 3000 * MS, out)).isEqualTo(2750 * MS);
        assertThat(strategy.reserve(bucket, config, 2, 3000 * MS, out)).as("one permit left in that window")
                .isEqualTo(RateLimitStrategy.REJECTED);
        assertThat(strategy.reserve(bucket, config, 1, 3000 * MS, out)).isEqualTo(2750 * MS);
        assertThat(strategy.reserve(bucket, config, 4, 60_000 * MS, out)).as("more than a window's limit")
                .isEqualTo(RateLimitStrategy.REJECTED);
    }

    @Test
    void whenTheReservedWindowComesItsCountIsWhatWasReserved() {
        LimitConfig config = LimitConfig.of(2, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 4; i++) {
            strategy.reserve(bucket, config, 1, 1000 * MS, out);
        }
        clock.advance(750); // the reserved window has started: it is full, no check gets in
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(strategy.peek(bucket, config, out)).isZero();
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(1000 * MS);
        clock.advance(1000); // one reserved, one free in this window
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        clock.advance(1000);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(1);
    }

    @Test
    void shortWindowsAndLargeLimitsAreCountedExactly() {
        LimitConfig config = LimitConfig.of(10_000, 10).withClock(clock); // 10,000 per 10 ms: 1 per microsecond
        Bucket bucket = strategy.newBucket(config);
        Map<Long, Integer> byWait = new TreeMap<>();
        for (int i = 0; i < 35_000; i++) {
            long wait = strategy.reserve(bucket, config, 1, 25 * MS, out);
            if (wait != RateLimitStrategy.REJECTED) {
                byWait.merge(wait, 1, Integer::sum);
            }
        }
        // now is a window start (START + 250): this window, then the ones starting in 10 and 20 ms; 30 ms > 25 ms
        assertThat(byWait).containsExactly(Map.entry(0L, 10_000), Map.entry(10 * MS, 10_000),
                Map.entry(20 * MS, 10_000));
    }

    @Test
    void aRefundedReservationIsTheNextCallersSlotInItsWindowOnly() {
        LimitConfig config = LimitConfig.of(1, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.reserve(bucket, config, 1, 5000 * MS, out)).isZero();
        assertThat(strategy.reserve(bucket, config, 1, 5000 * MS, out)).isEqualTo(750 * MS);
        long stamp = out[Outcome.STAMP];
        strategy.refund(bucket, config, 1, stamp); // the waiter was interrupted: its slot goes back
        assertThat(strategy.reserve(bucket, config, 1, 5000 * MS, out)).isEqualTo(750 * MS);
        assertThat(strategy.reserve(bucket, config, 1, 5000 * MS, out)).isEqualTo(1750 * MS);
        strategy.refund(bucket, config, 1, stamp); // a window already left behind: nothing is given back
        assertThat(strategy.reserve(bucket, config, 1, 5000 * MS, out)).isEqualTo(2750 * MS);
    }

    @Test
    void pendingReservationsAreLiveStateNotIdle() {
        LimitConfig config = LimitConfig.of(1, 100).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 5; i++) {
            strategy.reserve(bucket, config, 1, 1000 * MS, out);
        }
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        assertThat(strategy.retire(bucket, config)).isFalse();
        clock.advance(400); // the last reserved window is the current one
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        clock.advance(100);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
    }

    @Test
    void aClockStepBackNeverMakesAWaitLongerThanMaxWait() {
        LimitConfig config = LimitConfig.of(1, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 5; i++) {
            strategy.reserve(bucket, config, 1, 10_000 * MS, out);
        }
        clock.advance(-3_600_000); // an hour back: read as a step back, a fresh window at the new time
        long wait = strategy.reserve(bucket, config, 1, 1000 * MS, out);
        assertThat(wait).isBetween(0L, 1000 * MS);
    }

    @Test
    void theKeyedStoreReservesPerKey() {
        LimitConfig config = LimitConfig.of(1, 1000).withClock(clock);
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(strategy, config, 100);
        assertThat(limiter.reserve("a", 1, 1000 * MS, out)).isZero();
        assertThat(limiter.reserve("a", 1, 1000 * MS, out)).isEqualTo(750 * MS);
        assertThat(limiter.reserve("b", 1, 1000 * MS, out)).isZero();
        assertThat(limiter.reserve("a", 1, 1000 * MS, out)).isEqualTo(RateLimitStrategy.REJECTED);
    }

    /**
     * 200 threads reserve against one bucket with max-wait 10 s and a frozen clock at a window start: exactly
     * 50 permits in each of the 11 windows that start within 10 s, none more, none lost.
     */
    @Test
    void concurrentCallersGetExactlyTheLimitOfEveryWindow() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(200);
        try {
            checkWindows(pool, 200);
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void virtualThreadCallersGetExactlyTheLimitOfEveryWindow() throws Exception {
        assumeThat(Runtime.version().feature()).isGreaterThanOrEqualTo(21);
        ExecutorService pool = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
        try {
            checkWindows(pool, 1000);
        } finally {
            pool.shutdownNow();
        }
    }

    private void checkWindows(ExecutorService pool, int callers) throws Exception {
        ManualClock frozen = new ManualClock(START);
        LimitConfig config = LimitConfig.of(50, 1000).withClock(frozen);
        Bucket bucket = strategy.newBucket(config);
        CountDownLatch start = new CountDownLatch(1);
        List<Future<List<Long>>> results = new ArrayList<>();
        for (int t = 0; t < callers; t++) {
            results.add(pool.submit(() -> {
                long[] mine = Outcome.newArray();
                List<Long> waits = new ArrayList<>();
                start.await();
                for (int i = 0; i < 10; i++) {
                    long wait = strategy.reserve(bucket, config, 1, 10_000 * MS, mine);
                    if (wait != RateLimitStrategy.REJECTED) {
                        waits.add(wait);
                        assertThat(mine[Outcome.STAMP] * 1000 - START).isEqualTo(wait / MS);
                    }
                }
                return waits;
            }));
        }
        start.countDown();
        Map<Long, Integer> byWait = new TreeMap<>();
        for (Future<List<Long>> result : results) {
            for (long wait : result.get()) {
                byWait.merge(wait, 1, Integer::sum);
            }
        }
        Map<Long, Integer> expected = new TreeMap<>();
        for (long window = 0; window <= 10; window++) {
            expected.put(window * 1000 * MS, 50);
        }
        assertThat(byWait).isEqualTo(expected);
    }
}
