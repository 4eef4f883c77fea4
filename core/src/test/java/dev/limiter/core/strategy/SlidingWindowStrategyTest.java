package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import org.junit.jupiter.api.Test;

class SlidingWindowStrategyTest extends ManualClockStrategyTest<SlidingWindowStrategy> {

    SlidingWindowStrategyTest() {
        super(SlidingWindowStrategy.INSTANCE);
    }

    @Test
    void noDoubleBurstAtTheBoundary() {
        LimitConfig config = LimitConfig.of(10, 1000).withClock(clock);
        clock.advance(999);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(10);
        clock.advance(1); // new window, previous fully weighted
        assertThat(drain(bucket, config)).isZero();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(100); // 10 * (1000 - e) <= 9 * 1000 at e = 100
        clock.advance(100);
        assertThat(drain(bucket, config)).isEqualTo(1);
        clock.advance(400); // e = 500: prev weighs 5, current 1 -> 4 more
        assertThat(drain(bucket, config)).isEqualTo(4);
        assertThat(out[Outcome.REMAINING]).isZero();
    }

    @Test
    void neverMoreThanTheLimitInAnySlidingWindow() {
        LimitConfig config = LimitConfig.of(20, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        long[] admittedAt = new long[20_000];
        int n = 0;
        for (int ms = 0; ms < 10_000; ms++) {
            n += drainInto(bucket, config, admittedAt, n);
            clock.advance(1);
        }
        // under steady pressure the estimate spreads admissions evenly: no 1 s span holds more than the limit
        for (int i = 0, j = 0; i < n; i++) {
            while (admittedAt[i] - admittedAt[j] >= 1000) {
                j++;
            }
            assertThat(i - j + 1).isLessThanOrEqualTo(20);
        }
        assertThat(n).as("the estimate rounds in favour of the limit").isBetween(10 * 19, 10 * 20);
    }

    private int drainInto(Bucket bucket, LimitConfig config, long[] at, int from) {
        int k = 0;
        while (strategy.check(bucket, config, out)) {
            at[from + k++] = clock.millis();
        }
        return k;
    }

    @Test
    void estimateIsExactAtEveryInstant() {
        LimitConfig config = LimitConfig.of(7, 100).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(7);
        clock.advance(100);
        int cumulative = 0;
        for (int e = 0; e < 100; e++) {
            cumulative += drain(bucket, config);
            // 7 * (100 - e) / 100 + C <= 7  <=>  C <= 7 * e / 100
            assertThat(cumulative).as("admitted by e=%d", e).isEqualTo(7 * e / 100);
            assertThat(strategy.peek(bucket, config, out)).isZero();
            clock.advance(1);
        }
    }

    @Test
    void longIdleForgetsBothWindows() {
        LimitConfig config = LimitConfig.of(5, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(5);
        clock.advance(2000);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
        assertThat(drain(bucket, config)).isEqualTo(5);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo(START / 1000 + 4);
    }

    @Test
    void clockSteppingBackwardsNeverSticks() {
        LimitConfig config = LimitConfig.of(5, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        clock.advance(1000);
        assertThat(drain(bucket, config)).isEqualTo(5);
        clock.advance(-1); // previous window: still counted against the stored one
        assertThat(strategy.check(bucket, config, out)).isFalse();
        clock.advance(-3_600_000L); // far back: a fresh start, not an hour's wait
        assertThat(drain(bucket, config)).isEqualTo(5);
    }

    @Test
    void limitsAboveTwentyOneBitsAreRejected() {
        strategy.validate(LimitConfig.of(SlidingWindowStrategy.MAX_LIMIT, 1000));
        assertThatThrownBy(() -> strategy.validate(LimitConfig.of(SlidingWindowStrategy.MAX_LIMIT + 1, 1000)))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("sliding-window");
    }

    @Test
    void theLargestLimitCountsWithoutCorruptingTheIndex() {
        LimitConfig config = LimitConfig.of(SlidingWindowStrategy.MAX_LIMIT, 60_000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(SlidingWindowStrategy.MAX_LIMIT);
        clock.advance(60_000);
        assertThat(strategy.check(bucket, config, out)).isFalse(); // previous window fully weighted
        clock.advance(60_000);
        assertThat(strategy.check(bucket, config, out)).isTrue();
    }

    @Test
    void theLongestWindowWeighsThePreviousCountExactly() {
        long w = LimitConfig.MAX_WINDOW_MILLIS; // 2^32 - 1 ms, about 49.7 days
        LimitConfig config = LimitConfig.of(1000, w).withClock(clock);
        long windowStart = Math.floorDiv(START, w) * w;
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(1000);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo((windowStart + 2 * w + 999) / 1000);
        clock.set(windowStart + w); // next window, previous fully weighted
        assertThat(drain(bucket, config)).isZero();
        // 1000 * (w - e) <= 999 * w  <=>  e >= w / 1000: the first admission after 4,294,968 ms (71.6 min)
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(w - 999 * w / 1000);
        // half way (w is odd: e = (w - 1) / 2): 1000 weigh just over 500, so 499 more, not 500
        clock.set(windowStart + w + w / 2);
        assertThat(drain(bucket, config)).isEqualTo(499);
        clock.set(windowStart + 2 * w + w / 4); // a quarter into the next: 499 weigh just over 374
        assertThat(drain(bucket, config)).isEqualTo(625);
        clock.set(windowStart + 4 * w);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
        assertThat(drain(bucket, config)).isEqualTo(1000);
    }

    /**
     * The window index is kept mod 2^22 (it shares the word with both counts). A key idle for 2^22 - 1, 2^22 or
     * 2^22 + 1 windows (about 70 minutes with 1 ms windows, 48.5 days with 1 s windows) therefore finds its old
     * counts again, as if it were still in (or next to) the window it last used: conservative (it rejects, never
     * over-admits) and gone within two windows. Any other idle time starts afresh.
     */
    @Test
    void theWindowIndexWrapsAfterTwoToTheTwentyTwoWindows() {
        long wrap = 1L << 22;
        LimitConfig config = LimitConfig.of(5, 1).withClock(clock); // 1 ms windows: the wrap after 70 minutes
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(5);
        clock.advance(wrap); // the same index mod 2^22: the old window's full count
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        assertThat(drain(bucket, config)).isZero();
        clock.advance(1); // reads as the next window: the old count fully weighted
        assertThat(drain(bucket, config)).isZero();
        clock.advance(1); // two windows on: forgotten
        assertThat(drain(bucket, config)).isEqualTo(5);

        Bucket other = strategy.newBucket(config);
        assertThat(drain(other, config)).isEqualTo(5);
        clock.advance(wrap - 1); // reads as the window before the stored one: counted against the stored window
        assertThat(drain(other, config)).isZero();
        clock.advance(2); // wrap + 1: reads as the next window, old count fully weighted
        assertThat(drain(other, config)).isZero();
        clock.advance(1);
        assertThat(drain(other, config)).isEqualTo(5);

        Bucket fresh = strategy.newBucket(config);
        assertThat(drain(fresh, config)).isEqualTo(5);
        clock.advance(wrap + 2); // just past the wrap: a fresh start
        assertThat(strategy.isIdle(fresh, config)).isTrue();
        assertThat(drain(fresh, config)).isEqualTo(5);
        clock.advance(12_345); // and any other idle time
        assertThat(drain(fresh, config)).isEqualTo(5);
    }

    @Test
    void reconfigureKeepsCountsForANewLimitAndRestartsForANewWindow() {
        LimitConfig config = LimitConfig.of(10, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 6; i++) {
            strategy.check(bucket, config, out);
        }
        assertThat(drain(bucket, LimitConfig.of(8, 1000).withClock(clock))).isEqualTo(2);
        assertThat(drain(bucket, LimitConfig.of(8, 7000).withClock(clock))).isEqualTo(8);
    }
}
