package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.store.LocalKeyedLimiter;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SlidingLogStrategyTest extends ManualClockStrategyTest<SlidingLogStrategy> {

    SlidingLogStrategyTest() {
        super(SlidingLogStrategy.INSTANCE);
    }

    @Test
    void isBuiltInByName() {
        assertThat(Strategies.byName("sliding-log")).isSameAs(SlidingLogStrategy.INSTANCE);
        assertThat(Strategy.SLIDING_LOG.get()).isSameAs(SlidingLogStrategy.INSTANCE);
        assertThat(Strategies.isBuiltIn(SlidingLogStrategy.INSTANCE)).isTrue();
        assertThat(strategy.takesSeveral()).isTrue();
        assertThat(strategy.reserves()).isTrue();
        assertThat(strategy.usesCapacity()).isFalse();
        assertThat(strategy.releasesOnExit()).isFalse();
    }

    @Test
    void admitsIffFewerThanTheLimitInTheLastWindow() {
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, out)).isTrue(); // t = 0
        assertThat(out[Outcome.REMAINING]).isEqualTo(2);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo(START / 1000 + 1);
        assertThat(out[Outcome.LIMIT]).isEqualTo(3);
        clock.advance(400);
        assertThat(strategy.check(bucket, config, out)).isTrue(); // t = 400
        assertThat(out[Outcome.REMAINING]).isEqualTo(1);
        assertThat(strategy.check(bucket, config, out)).isTrue(); // t = 400
        assertThat(out[Outcome.REMAINING]).isZero();
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo((START + 1400 + 999) / 1000);
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(600);
        clock.advance(599); // t = 999: the first admission is still in (now - 1000, now]
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1);
        assertThat(strategy.peek(bucket, config, out)).isZero();
        clock.advance(1); // t = 1000: it has left
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(1);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(400);
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        clock.advance(999); // t = 1999: the newest (1000) is still in
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        clock.advance(1);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(3);
    }

    @Test
    void noBurstAtAnyBoundaryAndExactlyTheLimitPerWindowUnderSaturation() {
        LimitConfig config = LimitConfig.of(20, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        List<Long> admittedAt = new ArrayList<>();
        for (int ms = 0; ms < 10_000; ms++) {
            while (strategy.check(bucket, config, out)) {
                admittedAt.add(clock.millis());
            }
            assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isBetween(1L, 1000L);
            clock.advance(1);
        }
        for (int i = 0, j = 0; i < admittedAt.size(); i++) {
            while (admittedAt.get(i) - admittedAt.get(j) >= 1000) {
                j++;
            }
            assertThat(i - j + 1).as("admissions within 1 s before #%d", i).isLessThanOrEqualTo(20);
        }
        // a greedy client gets the whole limit at the start of each window, and exactly the limit per window
        assertThat(admittedAt).hasSize(10 * 20);
    }

    @Test
    void severalPermitsAreAsManyEntriesTakenTogetherOrNotAtAll() {
        LimitConfig config = LimitConfig.of(5, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, 3, out)).isTrue(); // t = 0: 3 entries
        assertThat(out[Outcome.REMAINING]).isEqualTo(2);
        clock.advance(100);
        assertThat(strategy.check(bucket, config, 3, out)).as("3 do not fit in 2").isFalse();
        assertThat(out[Outcome.REMAINING]).isEqualTo(2);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).as("the first entry at 0 leaves at 1000").isEqualTo(900);
        assertThat(strategy.check(bucket, config, 2, out)).isTrue(); // t = 100
        assertThat(out[Outcome.REMAINING]).isZero();
        clock.advance(900); // t = 1000: the 3 entries of t = 0 have left
        assertThat(strategy.check(bucket, config, 4, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).as("4 need the entry of t = 100 gone").isEqualTo(100);
        assertThat(strategy.check(bucket, config, 3, out)).isTrue();
        assertThat(strategy.check(bucket, config, 6, out)).as("more than the limit never fits").isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1000);
    }

    @Test
    void aRefundCountsOnePermitFewerAtOnceAndNeverFewerThanHappened() {
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, out)).isTrue(); // 0
        clock.advance(100);
        assertThat(strategy.check(bucket, config, out)).isTrue(); // 100
        clock.advance(100);
        assertThat(strategy.check(bucket, config, 1, out)).isTrue(); // 200, refunded below
        long stamp = out[Outcome.STAMP];
        assertThat(strategy.check(bucket, config, out)).isFalse();
        strategy.refund(bucket, config, 1, stamp);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(1);
        assertThat(strategy.check(bucket, config, out)).isTrue(); // 200 again
        assertThat(strategy.check(bucket, config, out)).isFalse();
        // the log moved its oldest entry (0) out and keeps the refunded one (200): the admissions that really
        // happened (0, 100, 200) are all counted, one as of 200 instead of 0, which only delays
        clock.advance(900); // t = 1100: the entry of 100 has left
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(100);
    }

    @Test
    void aRefundOfPermitsThatLeftTheWindowGivesNothingBack() {
        LimitConfig config = LimitConfig.of(2, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, 2, out)).isTrue();
        long stamp = out[Outcome.STAMP];
        clock.advance(1000);
        assertThat(strategy.check(bucket, config, 2, out)).isTrue();
        strategy.refund(bucket, config, 2, stamp);
        assertThat(strategy.peek(bucket, config, out)).isZero();
    }

    @Test
    void reservationsWaitForTheEntriesTheyReplaceInOrder() {
        LimitConfig config = LimitConfig.of(2, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        long max = 5_000_000_000L;
        assertThat(strategy.reserve(bucket, config, 1, max, out)).isZero(); // 0
        clock.advance(300);
        assertThat(strategy.reserve(bucket, config, 1, max, out)).isZero(); // 300
        assertThat(strategy.reserve(bucket, config, 1, max, out)).isEqualTo(700_000_000L); // at 1000
        assertThat(strategy.reserve(bucket, config, 1, max, out)).isEqualTo(1_000_000_000L); // at 1300
        assertThat(strategy.reserve(bucket, config, 1, max, out)).isEqualTo(1_700_000_000L); // at 2000
        assertThat(strategy.reserve(bucket, config, 1, 1_999_999_999L, out)).isEqualTo(RateLimitStrategy.REJECTED);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).as("2300 is 2000 ms away, 1 ms too far").isEqualTo(1);
        assertThat(strategy.reserve(bucket, config, 1, 1_000_000_000L, out)).isEqualTo(RateLimitStrategy.REJECTED);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1000);
        assertThat(strategy.check(bucket, config, out)).as("nothing left now").isFalse();
        assertThat(strategy.isIdle(bucket, config)).as("reservations are live").isFalse();
        assertThat(strategy.retire(bucket, config)).isFalse();
        // a reservation given back frees its own entry from its own time on
        clock.advance(100); // t = 400
        assertThat(strategy.reserve(bucket, config, 1, max, out)).isEqualTo(1_900_000_000L); // at 2300
        long stamp = out[Outcome.STAMP];
        strategy.refund(bucket, config, 1, stamp);
        // the next reservation replaces the entry after it (of 2000): the refunded one is reused a lap later
        assertThat(strategy.reserve(bucket, config, 1, max, out)).isEqualTo(2_600_000_000L);
    }

    @Test
    void aStepBackGivesAtMostOneBudgetAndNeverWaitsForTheOldTime() {
        LimitConfig config = LimitConfig.of(5, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(5);
        clock.advance(-3_600_000);
        assertThat(drain(bucket, config)).as("a fresh budget at the new time").isEqualTo(5);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1000);
        clock.advance(1000);
        assertThat(drain(bucket, config)).isEqualTo(5);
        // a small step back: the entries ahead still count, for at most the step and a window
        clock.advance(-300);
        assertThat(drain(bucket, config)).isZero();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1300);
        clock.advance(1300);
        assertThat(drain(bucket, config)).isEqualTo(5);
        // forward: everything has left the window
        clock.advance(3_600_000);
        assertThat(drain(bucket, config)).isEqualTo(5);
    }

    @Test
    void onlyAnIdleLogRetiresAndARetiredOneRejectsAndReadsFresh() {
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.isIdle(bucket, config)).as("a new log").isTrue();
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.retire(bucket, config)).isFalse();
        clock.advance(1000);
        assertThat(strategy.retire(bucket, config)).isTrue();
        assertThat(strategy.retire(bucket, config)).isTrue();
        assertThat(strategy.isRetired(bucket)).isTrue();
        assertThat(strategy.isIdle(bucket, config)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(strategy.reserve(bucket, config, 1, 1_000_000_000L, out)).isEqualTo(RateLimitStrategy.REJECTED);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(3);
        assertThat(strategy.check(bucket, config.withLimit(5, 1000), out)).as("not revived by a move").isFalse();
    }

    @Test
    void aLowerLimitAppliesAtOnceAndAHigherOneKeepsEveryEntry() {
        LimitConfig three = LimitConfig.of(3, 1000).withClock(clock);
        LimitConfig two = three.withLimit(2, 1000);
        LimitConfig six = three.withLimit(6, 1000);
        SlidingLogStrategy.LogBucket bucket = (SlidingLogStrategy.LogBucket) strategy.newBucket(three);
        assertThat(drain(bucket, three)).isEqualTo(3); // t = 0
        clock.advance(500);
        assertThat(strategy.peek(bucket, two, out)).isZero();
        assertThat(drain(bucket, two)).isZero();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).as("two of the three must leave").isEqualTo(500);
        assertThat(strategy.peek(bucket, six, out)).isEqualTo(3);
        assertThat(drain(bucket, six)).as("the ring grows, the 3 entries stay").isEqualTo(3); // t = 500
        assertThat(bucket.size()).isEqualTo(6);
        assertThat(drain(bucket, two)).isZero();
        assertThat(drain(bucket, three)).isZero();
        assertThat(bucket.size()).as("not shrunk: nothing is lost on the way back").isEqualTo(6);
        clock.advance(500); // t = 1000: the entries of 0 have left, those of 500 count
        assertThat(drain(bucket, three)).isZero();
        assertThat(strategy.peek(bucket, six, out)).isEqualTo(3);
        assertThat(drain(bucket, six)).isEqualTo(3);
        clock.advance(500); // t = 1500
        assertThat(drain(bucket, two)).isZero();
        assertThat(drain(bucket, three)).as("the 3 of t = 1000 count").isZero();
        assertThat(drain(bucket, six)).isEqualTo(3);
        // a longer window applies to the entries at once
        LimitConfig longer = six.withLimit(6, 60_000);
        clock.advance(10_000); // t = 11500: the entries of 1000 and 1500 are all in the last minute
        assertThat(drain(bucket, longer)).isZero();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1000 + 60_000 - 11_500);
    }

    @Test
    void aClockFarFromTheBaseMovesTheLogAndKeepsWhatCounts() {
        long day = 86_400_000L;
        LimitConfig config = LimitConfig.of(4, 49 * day).withClock(clock);
        Bucket bucket = strategy.newBucket(config); // based at START
        clock.advance(40 * day);
        assertThat(strategy.check(bucket, config, 3, out)).isTrue();
        clock.advance(10 * day); // 50 days from the base: more than 2^32 ms
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(39 * day);
        clock.advance(39 * day);
        assertThat(drain(bucket, config)).isEqualTo(3);
        clock.advance(-200 * day); // far back: re-based again, everything ahead is a step back's
        assertThat(drain(bucket, config)).isEqualTo(4);
    }

    @Test
    void validateRefusesLimitsAboveTheBound() {
        strategy.validate(LimitConfig.of(SlidingLogStrategy.MAX_LIMIT, 1000));
        assertThatThrownBy(() -> strategy.validate(LimitConfig.of(SlidingLogStrategy.MAX_LIMIT + 1, 1000)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("sliding-log keeps one 8-byte entry per permit: a limit of at most 10000 (use"
                        + " sliding-window or token-bucket above that): 10001");
        assertThatThrownBy(() -> LocalKeyedLimiter.create(strategy, LimitConfig.of(20_000, 1000), 10))
                .hasMessageContaining("at most 10000");
    }

    @Test
    void theAllowedPathOfAnExistingKeyAndReadsOfAMissingOneAllocateNothing() {
        LimitConfig config = LimitConfig.of(10_000, 1).withClock(clock);
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(strategy, config, 10);
        int calls = 50_000;
        long sink = 0;
        for (int i = 0; i < calls; i++) { // warm up; the clock moves a window every 5,000 calls
            sink += limiter.tryAcquire("k", out) ? 1 : 0;
            sink += limiter.remaining("missing", out);
            if (i % 5_000 == 0) {
                clock.advance(1);
            }
        }
        com.sun.management.ThreadMXBean threads =
                (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getCurrentThreadAllocatedBytes();
        long admitted = 0;
        for (int i = 0; i < calls; i++) {
            admitted += limiter.tryAcquire("k", out) ? 1 : 0;
            sink += limiter.remaining("missing", out);
            if (i % 5_000 == 4_999) {
                clock.advance(1);
            }
        }
        long allocated = threads.getCurrentThreadAllocatedBytes() - before;
        assertThat(sink).isPositive();
        assertThat(admitted).as("the allowed path").isEqualTo(calls);
        assertThat(allocated).as("bytes allocated by %d calls", calls).isLessThan(calls / 4);
    }

    /**
     * Random calls, costs, refunds, limit and window changes and clock moves against the documented semantics
     * written as a plain list of admission times: admit {@code p} iff at most {@code limit - p} entries are in
     * {@code (now - window, now]}; a refund moves the oldest entry that counts to {@code now - window} for each
     * refunded permit, if it is no newer than the refunded call. The log holds the last {@code ring} entries (the
     * largest limit so far): after a longer window, older ones no longer count; a ring moved to grow keeps what it
     * held.
     */
    @Test
    void matchesTheListModelOverRandomHistories() {
        for (long seed = 1; seed <= 100; seed++) {
            Random random = new Random(seed);
            long limit = 1 + random.nextInt(12);
            long window = 1 + random.nextInt(40);
            LimitConfig config = LimitConfig.of(limit, window).withClock(clock);
            Bucket bucket = strategy.newBucket(config);
            List<Long> model = new ArrayList<>();
            List<long[]> taken = new ArrayList<>(); // {admission time, permits, stamp}
            int ring = (int) limit; // the log knows the last `ring` entries: its ring grows with the limit
            for (int step = 0; step < 2_000; step++) {
                int op = random.nextInt(100);
                long now = clock.millis();

                String at = "seed " + seed + " step " + step + " limit " + limit + " window " + window;
                if (op < 60) {
                    if (limit > ring) { // this call moves the log into a larger ring: what it held, in order
                        for (int i = 0; i < model.size() - ring; i++) {
                            model.set(i, Long.MIN_VALUE / 4);
                        }
                        ring = (int) limit;
                    }
                    long permits = 1 + random.nextInt((int) Math.min(limit, 3));
                    int inWindow = inWindow(model, ring, now, window);
                    boolean expected = inWindow + permits <= limit;
                    assertThat(strategy.check(bucket, config, permits, out)).as(at).isEqualTo(expected);
                    if (expected) {
                        taken.add(new long[] {now, permits, out[Outcome.STAMP]});
                        assertThat(out[Outcome.STAMP]).as(at).isEqualTo(now);
                        for (int i = 0; i < permits; i++) {
                            model.add(now);
                        }
                        assertThat(out[Outcome.REMAINING]).as(at).isEqualTo(limit - inWindow - permits);
                        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).as(at)
                                .isEqualTo(Outcome.ceilSeconds(now + window));
                    } else {
                        long needed = model.get(model.size() - (int) (limit - permits + 1));
                        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).as(at).isEqualTo(needed + window - now);
                        assertThat(out[Outcome.REMAINING]).as(at).isEqualTo(Math.max(0, limit - inWindow));
                    }
                } else if (op < 70 && !taken.isEmpty()) {
                    long[] call = taken.remove(random.nextInt(taken.size()));
                    for (int i = 0; i < call[1]; i++) { // the oldest that counts goes, if no newer than the call
                        int oldest = model.size() - inWindow(model, ring, now, window);
                        if (oldest < model.size() && model.get(oldest) <= call[0]) {
                            model.set(oldest, now - window);
                        }
                    }
                    strategy.refund(bucket, config, call[1], call[2]);
                } else if (op < 75) {
                    limit = 1 + random.nextInt(12);
                    config = config.withLimit(limit, window);
                } else if (op < 78) {
                    window = 1 + random.nextInt(40);
                    config = config.withLimit(limit, window);
                } else {
                    clock.advance(random.nextInt(10));
                }
                long expectedLeft = Math.max(0, limit - inWindow(model, ring, clock.millis(), window));
                assertThat(strategy.peek(bucket, config, out)).as(at).isEqualTo(expectedLeft);
            }
        }
    }

    /** Entries in {@code (now - window, now]} among the last {@code ring}. */
    private static int inWindow(List<Long> times, int ring, long now, long window) {
        int n = 0;
        for (int i = times.size() - 1; i >= Math.max(0, times.size() - ring) && times.get(i) > now - window; i--) {
            n++;
        }
        return n;
    }
}
