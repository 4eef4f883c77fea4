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
 * Reservations on the sliding log: a call waits until the entries it replaces leave the window. Every time is read
 * from the returned waits against a frozen {@link ManualClock}, so nothing here depends on the machine's speed.
 */
class SlidingLogReservationTest {

    private static final long START = 1_767_225_600_000L;
    private static final long MS = 1_000_000L;

    private final SlidingLogStrategy strategy = SlidingLogStrategy.INSTANCE;
    private final ManualClock clock = new ManualClock(START);
    private final long[] out = Outcome.newArray();

    @Test
    void aClockStepBackNeverMakesAWaitLongerThanMaxWait() {
        LimitConfig config = LimitConfig.of(1, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 5; i++) {
            strategy.reserve(bucket, config, 1, 10_000 * MS, out);
        }
        clock.advance(-3_600_000); // an hour back: the reservations ahead are a step back's, not waits
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isZero();
        assertThat(strategy.reserve(bucket, config, 1, 1000 * MS, out)).isEqualTo(1000 * MS);
    }

    @Test
    void theKeyedStoreReservesPerKey() {
        LimitConfig config = LimitConfig.of(1, 1000).withClock(clock);
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(strategy, config, 100);
        assertThat(limiter.reserve("a", 1, 2000 * MS, out)).isZero();
        assertThat(limiter.reserve("a", 1, 2000 * MS, out)).isEqualTo(1000 * MS);
        assertThat(limiter.reserve("b", 1, 2000 * MS, out)).isZero();
        assertThat(limiter.reserve("a", 1, 1500 * MS, out)).isEqualTo(RateLimitStrategy.REJECTED);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(500);
    }

    @Test
    void severalPermitsWaitForTheLastOfTheEntriesTheyReplace() {
        LimitConfig config = LimitConfig.of(4, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.reserve(bucket, config, 1, 5000 * MS, out)).isZero(); // 0
        clock.advance(100);
        assertThat(strategy.reserve(bucket, config, 2, 5000 * MS, out)).isZero(); // 100, 100
        clock.advance(100);
        assertThat(strategy.reserve(bucket, config, 3, 5000 * MS, out))
                .as("one entry free, then those of 0 and 100 must leave: at 1100").isEqualTo(900 * MS);
        assertThat(out[Outcome.STAMP]).isEqualTo(START + 1100);
    }

    /**
     * 200 threads reserve against one log with max-wait 10 s and a frozen clock: exactly 50 permits at each
     * whole second from now to 10 s ahead (each 50 replace the 50 before, a window older), none more, none lost.
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
        LimitConfig config = LimitConfig.of(50, 1000).withClock(clock);
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
                        assertThat(mine[Outcome.STAMP] - START).isEqualTo(wait / MS);
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
        assertThat(strategy.isIdle(bucket, config)).isFalse();
    }
}
