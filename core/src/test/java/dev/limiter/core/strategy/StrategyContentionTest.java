package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.Contention;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

/**
 * Many threads hammer one bucket with the clock frozen, so the exact number that must be admitted is known:
 * a lost or duplicated CAS shows up as a wrong total (Resilience4j #822 handed out extra permits this way).
 */
class StrategyContentionTest {

    private static final int THREADS = 8;
    private static final int ATTEMPTS = 20_000;

    private final ManualClock clock = new ManualClock(1_767_225_600_500L);

    private long hammer(RateLimitStrategy strategy, Bucket bucket, LimitConfig config) throws Exception {
        return Contention.platform(THREADS, t -> {
            long[] out = Outcome.newArray();
            long admitted = 0;
            for (int i = 0; i < ATTEMPTS; i++) {
                if (strategy.check(bucket, config, out)) {
                    admitted++;
                }
            }
            return admitted;
        });
    }

    @RepeatedTest(3)
    void fixedWindowAdmitsExactlyTheLimit() throws Exception {
        LimitConfig config = LimitConfig.of(5_000, 1000).withClock(clock);
        Bucket bucket = FixedWindowStrategy.INSTANCE.newBucket(config);
        assertThat(hammer(FixedWindowStrategy.INSTANCE, bucket, config)).isEqualTo(5_000);
    }

    @RepeatedTest(3)
    void tokenBucketAdmitsExactlyTheCapacity() throws Exception {
        LimitConfig config = LimitConfig.of(7, 60_000).withCapacity(5_000).withClock(clock);
        Bucket bucket = TokenBucketStrategy.INSTANCE.newBucket(config);
        assertThat(hammer(TokenBucketStrategy.INSTANCE, bucket, config)).isEqualTo(5_000);
    }

    @RepeatedTest(3)
    void leakyBucketAdmitsExactlyTheTolerance() throws Exception {
        LimitConfig config = LimitConfig.of(3, 1000).withCapacity(4_321).withClock(clock);
        Bucket bucket = LeakyBucketStrategy.INSTANCE.newBucket(config);
        assertThat(hammer(LeakyBucketStrategy.INSTANCE, bucket, config)).isEqualTo(4_321);
    }

    @RepeatedTest(3)
    void slidingWindowAdmitsExactlyWhatTheEstimateAllows() throws Exception {
        LimitConfig config = LimitConfig.of(10_000, 1000).withClock(clock);
        SlidingWindowStrategy strategy = SlidingWindowStrategy.INSTANCE;
        Bucket bucket = strategy.newBucket(config);
        long[] out = Outcome.newArray();
        clock.advance(-500); // start of a window
        for (int i = 0; i < 6_000; i++) {
            assertThat(strategy.check(bucket, config, out)).isTrue();
        }
        clock.advance(1_250); // next window, e = 250: previous weighs 6000 * 750 / 1000 = 4500
        assertThat(hammer(strategy, bucket, config)).isEqualTo(10_000 - 4_500);
    }

    @RepeatedTest(3)
    void slidingLogAdmitsExactlyTheLimit() throws Exception {
        LimitConfig config = LimitConfig.of(5_000, 1000).withClock(clock);
        Bucket bucket = SlidingLogStrategy.INSTANCE.newBucket(config);
        assertThat(hammer(SlidingLogStrategy.INSTANCE, bucket, config)).isEqualTo(5_000);
        assertThat(SlidingLogStrategy.INSTANCE.peek(bucket, config, Outcome.newArray())).isZero();
    }

    /** A full log whose older entries leave the window: exactly those are admitted again, no more. */
    @RepeatedTest(3)
    void slidingLogAdmitsExactlyTheEntriesThatLeftTheWindow() throws Exception {
        LimitConfig config = LimitConfig.of(10_000, 1000).withClock(clock);
        SlidingLogStrategy strategy = SlidingLogStrategy.INSTANCE;
        Bucket bucket = strategy.newBucket(config);
        long[] out = Outcome.newArray();
        for (int i = 0; i < 6_000; i++) {
            assertThat(strategy.check(bucket, config, out)).isTrue();
        }
        clock.advance(500);
        for (int i = 0; i < 4_000; i++) {
            assertThat(strategy.check(bucket, config, out)).isTrue();
        }
        clock.advance(500); // the 6,000 of the first instant have left, the 4,000 still count
        assertThat(hammer(strategy, bucket, config)).isEqualTo(6_000);
        clock.advance(499);
        assertThat(hammer(strategy, bucket, config)).isZero();
        clock.advance(1);
        assertThat(hammer(strategy, bucket, config)).isEqualTo(4_000);
    }

    /**
     * Costs of 1 to 3 from 8 threads: every call takes its entries together or not at all (a claim and the
     * followers its helpers write), so the permits admitted and the permits left add up to the limit exactly.
     */
    @RepeatedTest(5)
    void slidingLogSeveralPermitsAddUpExactly() throws Exception {
        LimitConfig config = LimitConfig.of(5_000, 1000).withClock(clock);
        SlidingLogStrategy strategy = SlidingLogStrategy.INSTANCE;
        Bucket bucket = strategy.newBucket(config);
        long taken = Contention.platform(THREADS, t -> {
            long[] out = Outcome.newArray();
            long n = 0;
            for (int i = 0; i < ATTEMPTS / 4; i++) {
                long cost = 1 + (i + t) % 3;
                if (strategy.check(bucket, config, cost, out)) {
                    n += cost;
                }
            }
            return n;
        });
        assertThat(taken).isBetween(4_998L, 5_000L);
        assertThat(strategy.peek(bucket, config, Outcome.newArray())).isEqualTo(5_000 - taken);
    }

    /**
     * Two limits in use at once on one log (a reload while calls are in flight), threads alternating them: the
     * first check under the higher limit moves the log into a larger ring while others claim, and no entry is
     * lost on the way (the lower limit applies in place), so exactly the higher limit is admitted.
     */
    @RepeatedTest(5)
    void slidingLogGrowsUnderContentionWithoutLosingAnEntry() throws Exception {
        LimitConfig low = LimitConfig.of(2_000, 1000).withClock(clock);
        LimitConfig high = LimitConfig.of(3_000, 1000).withClock(clock);
        SlidingLogStrategy strategy = SlidingLogStrategy.INSTANCE;
        SlidingLogStrategy.LogBucket bucket = (SlidingLogStrategy.LogBucket) strategy.newBucket(low);
        long admitted = Contention.platform(THREADS, t -> {
            long[] out = Outcome.newArray();
            long n = 0;
            for (int i = 0; i < ATTEMPTS / 4; i++) {
                if (strategy.check(bucket, (i + t) % 3 == 0 ? high : low, out)) {
                    n++;
                }
            }
            return n;
        });
        assertThat(admitted).isEqualTo(3_000);
        assertThat(bucket.size()).isEqualTo(3_000);
    }

    /**
     * The clock ticks while 8 threads check (stale readings, claims racing ticks). Every admission reports the
     * time it is recorded at (its stamp; the reset is that time plus the window, and the clock moves in whole
     * seconds, so the reset gives it too): sorted, the permit {@code limit} admissions before any other is at
     * least a window older, so no span of one window holds more than the limit.
     */
    @RepeatedTest(3)
    void slidingLogNeverAdmitsMoreThanTheLimitInAnyWindowWhileTheClockTicks() throws Exception {
        int limit = 50;
        long window = 3_000;
        ManualClock seconds = new ManualClock(1_767_225_600_000L);
        LimitConfig config = LimitConfig.of(limit, window).withClock(seconds);
        SlidingLogStrategy strategy = SlidingLogStrategy.INSTANCE;
        Bucket bucket = strategy.newBucket(config);
        AtomicBoolean stop = new AtomicBoolean();
        CountDownLatch running = new CountDownLatch(1);
        Thread ticker = new Thread(() -> {
            try {
                running.await(); // the clock moves only once the callers run: a slow start cannot skip the test
            } catch (InterruptedException e) {
                return;
            }
            while (!stop.get()) {
                seconds.advance(1000);
                java.util.concurrent.locks.LockSupport.parkNanos(200_000);
            }
        });
        List<long[]> admissions = Collections.synchronizedList(new ArrayList<>());
        ticker.start();
        try {
            long end = seconds.millis() + 20 * window;
            long deadline = System.nanoTime() + 5_000_000_000L;
            Contention.platform(THREADS, t -> {
                long[] out = Outcome.newArray();
                List<long[]> mine = new ArrayList<>();
                running.countDown();
                while (seconds.millis() < end && System.nanoTime() < deadline) {
                    if (strategy.check(bucket, config, out)) {
                        mine.add(new long[] {out[Outcome.STAMP], out[Outcome.RESET_EPOCH_SECONDS] * 1000 - window});
                    }
                }
                admissions.addAll(mine);
                return mine.size();
            });
        } finally {
            stop.set(true);
            running.countDown();
            ticker.join();
        }
        admissions.sort((a, b) -> Long.compare(a[0], b[0]));
        assertThat(admissions.size()).as("several windows' worth").isGreaterThan(3 * limit);
        for (int i = 0; i < admissions.size(); i++) {
            assertThat(admissions.get(i)[1]).as("the stamp is the recorded time").isEqualTo(admissions.get(i)[0]);
            if (i >= limit) {
                assertThat(admissions.get(i)[0] - admissions.get(i - limit)[0]).as("the permit %d back", limit)
                        .isGreaterThanOrEqualTo(window);
            }
        }
    }

    @RepeatedTest(3)
    void concurrencyNeverExceedsTheLimitAndReleasesBalance() throws Exception {
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        ConcurrencyStrategy strategy = ConcurrencyStrategy.INSTANCE;
        Bucket bucket = strategy.newBucket(config);
        AtomicInteger inside = new AtomicInteger();
        AtomicInteger maxInside = new AtomicInteger();
        long admitted = Contention.platform(THREADS, t -> {
            long[] out = Outcome.newArray();
            long n = 0;
            for (int i = 0; i < ATTEMPTS; i++) {
                if (strategy.check(bucket, config, out)) {
                    int now = inside.incrementAndGet();
                    maxInside.accumulateAndGet(now, Math::max);
                    inside.decrementAndGet();
                    strategy.release(bucket, config);
                    n++;
                }
            }
            return n;
        });
        assertThat(admitted).isPositive();
        assertThat(maxInside.get()).isBetween(1, 3);
        assertThat(ConcurrencyStrategy.inFlight(bucket)).isZero();
    }

    @Test
    void concurrencyAdmitsExactlyTheLimitWithoutReleases() throws Exception {
        LimitConfig config = LimitConfig.of(777, 1000).withClock(clock);
        Bucket bucket = ConcurrencyStrategy.INSTANCE.newBucket(config);
        assertThat(hammer(ConcurrencyStrategy.INSTANCE, bucket, config)).isEqualTo(777);
    }

    @Test
    void tokenBucketStaysWithinTheRateWhileTheClockTicks() throws Exception {
        LimitConfig config = LimitConfig.of(1_000, 1000).withCapacity(100).withClock(clock);
        Bucket bucket = TokenBucketStrategy.INSTANCE.newBucket(config);
        long t0 = clock.millis();
        AtomicBoolean stop = new AtomicBoolean();
        Thread ticker = new Thread(() -> {
            while (!stop.get()) {
                clock.advance(1);
                Thread.onSpinWait();
            }
        });
        ticker.start();
        long admitted;
        try {
            admitted = hammer(TokenBucketStrategy.INSTANCE, bucket, config);
        } finally {
            stop.set(true);
            ticker.join();
        }
        long elapsed = clock.millis() - t0;
        assertThat(admitted).isPositive().isLessThanOrEqualTo(100 + elapsed * 1_000 / 1000);
    }

    @RepeatedTest(10)
    void tokenBucketReconfiguredBackAndForthUnderContentionNeverCreatesPermits() throws Exception {
        assertThat(admittedWhileReconfiguredBackAndForth(TokenBucketStrategy.INSTANCE)).isBetween(2_900L, 3_000L);
    }

    @RepeatedTest(10)
    void leakyBucketReconfiguredBackAndForthUnderContentionNeverCreatesPermits() throws Exception {
        assertThat(admittedWhileReconfiguredBackAndForth(LeakyBucketStrategy.INSTANCE)).isBetween(2_900L, 3_000L);
    }

    /**
     * Two rates, same capacity (3,000), one bucket, 8 threads alternating the configs with the clock frozen:
     * every check may convert the bucket's scale. Conversions keep the permit count (rounding down), so however
     * the threads interleave, no more than the capacity can be admitted. This is what caught the slot-1 ABA.
     */
    private long admittedWhileReconfiguredBackAndForth(RateLimitStrategy strategy) throws Exception {
        LimitConfig a = LimitConfig.of(10, 1000).withCapacity(3_000).withClock(clock);
        LimitConfig b = LimitConfig.of(7, 3000).withCapacity(3_000).withClock(clock);
        Bucket bucket = strategy.newBucket(a);
        return Contention.platform(THREADS, t -> {
            long[] out = Outcome.newArray();
            long n = 0;
            for (int i = 0; i < ATTEMPTS; i++) {
                if (strategy.check(bucket, (i + t) % 3 == 0 ? b : a, out)) {
                    n++;
                }
            }
            return n;
        });
    }

    @RepeatedTest(2)
    void aThousandVirtualThreadsOnEveryStrategy() throws Exception {
        assumeThat(Contention.virtualThreadsAvailable()).as("virtual threads need Java 21+").isTrue();
        LimitConfig config = LimitConfig.of(1_500, 1000).withClock(clock);
        RateLimitStrategy[] strategies = {FixedWindowStrategy.INSTANCE, TokenBucketStrategy.INSTANCE,
            SlidingWindowStrategy.INSTANCE, LeakyBucketStrategy.INSTANCE, ConcurrencyStrategy.INSTANCE,
            SlidingLogStrategy.INSTANCE};
        for (RateLimitStrategy strategy : strategies) {
            Bucket bucket = strategy.newBucket(config);
            long admitted = Contention.virtual(1_000, t -> {
                long[] out = Outcome.newArray();
                long n = 0;
                for (int i = 0; i < 5; i++) {
                    if (strategy.check(bucket, config, out)) {
                        n++;
                    }
                    if ((i & 1) == 1) {
                        Thread.yield();
                    }
                }
                return n;
            });
            assertThat(admitted).as(strategy.name()).isEqualTo(1_500);
        }
    }
}
