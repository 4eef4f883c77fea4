package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import org.junit.jupiter.api.Test;

class FixedWindowStrategyTest extends ManualClockStrategyTest<FixedWindowStrategy> {

    FixedWindowStrategyTest() {
        super(FixedWindowStrategy.INSTANCE);
    }

    @Test
    void admitsTheLimitPerClockAlignedWindow() {
        LimitConfig config = LimitConfig.of(5, 1000).withClock(clock);
        clock.advance(250);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(out).containsExactly(4, START / 1000 + 1, 0, 5, START / 1000); // stamped with its window
        assertThat(drain(bucket, config)).isEqualTo(4);
        assertThat(out).containsExactly(0, START / 1000 + 1, 750, 5, 0);
        clock.advance(749);
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1);
        clock.advance(1); // the next window starts at a whole second
        assertThat(drain(bucket, config)).isEqualTo(5);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo(START / 1000 + 2);
    }

    @Test
    void theBoundaryBurstIsTwiceTheLimit() {
        LimitConfig config = LimitConfig.of(5, 1000).withClock(clock);
        clock.advance(999);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(5);
        clock.advance(1);
        assertThat(drain(bucket, config)).isEqualTo(5); // documented: use sliding-window against this
    }

    @Test
    void longIdleAndVeryLongWindows() {
        LimitConfig month = LimitConfig.of(3, 30L * 86_400_000L).withClock(clock);
        Bucket bucket = strategy.newBucket(month);
        assertThat(drain(bucket, month)).isEqualTo(3);
        long windowEnd = (Math.floorDiv(START, month.windowMillis()) + 1) * month.windowMillis();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(windowEnd - START);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo(windowEnd / 1000);
        clock.set(windowEnd);
        assertThat(drain(bucket, month)).isEqualTo(3);
        clock.advance(10 * 365L * 86_400_000L);
        assertThat(strategy.isIdle(bucket, month)).isTrue();
        assertThat(drain(bucket, month)).isEqualTo(3);
    }

    @Test
    void oneMillisecondWindowsWrapTheirThirtyTwoBitIndexSafely() {
        LimitConfig config = LimitConfig.of(2, 1).withClock(clock); // window index ~1.7e12: truncated
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 1000; i++) {
            assertThat(drain(bucket, config)).isEqualTo(2);
            clock.advance(1);
        }
    }

    @Test
    void aFullThirtyTwoBitCountSaturatesInsteadOfWrapping() {
        LimitConfig config = LimitConfig.of(LimitConfig.MAX_LIMIT, 60_000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        long window = Math.floorDiv(START, 60_000L);
        bucket.setSlot0((window << 32) | (LimitConfig.MAX_LIMIT - 1));
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isZero();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(bucket.slot0() & 0xFFFF_FFFFL).isEqualTo(LimitConfig.MAX_LIMIT);

        bucket.setSlot0((window << 32) | 0xFFFF_FFFFL); // even a corrupt all-ones count never wraps to 0
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(bucket.slot0()).isEqualTo((window << 32) | 0xFFFF_FFFFL);
    }

    @Test
    void clockSteppingBackIntoThePreviousWindowGrantsNoFreshBudget() {
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        clock.advance(1000);
        assertThat(drain(bucket, config)).isEqualTo(3);
        clock.advance(-10); // into the previous window
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1010);
        clock.advance(1010);
        assertThat(drain(bucket, config)).isEqualTo(3);
    }

    @Test
    void aLargeStepBackStartsAFreshWindowInsteadOfSticking() {
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(3);
        clock.advance(-3_600_000L);
        assertThat(drain(bucket, config)).isEqualTo(3);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1000);
    }

    @Test
    void reconfigureAppliesTheNewLimitToTheCurrentCount() {
        LimitConfig config = LimitConfig.of(10, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 4; i++) {
            strategy.check(bucket, config, out);
        }
        LimitConfig lower = LimitConfig.of(5, 1000).withClock(clock);
        assertThat(strategy.peek(bucket, lower, out)).isEqualTo(1);
        assertThat(drain(bucket, lower)).isEqualTo(1);
        LimitConfig longer = LimitConfig.of(5, 60_000).withClock(clock);
        assertThat(drain(bucket, longer)).as("a new window length restarts the count").isEqualTo(5);
    }

    @Test
    void theWindowHintIsOnlyAHint() {
        LimitConfig config = LimitConfig.of(2, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        long[] hints = {0, -1, Long.MAX_VALUE, Long.MIN_VALUE, START / 1000 - 1, START / 1000 + 1,
            START / 1000 * 4_000_000_000L, 1L << 62};
        for (long hint : hints) {
            bucket.setSlot1(hint);
            assertThat(FixedWindowStrategy.windowOf(bucket, START + 5, 1000)).as("hint %d", hint)
                    .isEqualTo(START / 1000);
            assertThat(FixedWindowStrategy.windowOf(bucket, START + 5, 4_000_000_000L)).as("hint %d", hint)
                    .isEqualTo((START + 5) / 4_000_000_000L);
        }
        bucket.setSlot1(12345);
        assertThat(drain(bucket, config)).isEqualTo(2);
        assertThat(bucket.slot1()).as("refreshed on the roll").isEqualTo(START / 1000);
        clock.advance(1000);
        assertThat(drain(bucket, config)).isEqualTo(2);
        assertThat(bucket.slot1()).isEqualTo(START / 1000 + 1);
    }

    @Test
    void idleMeansNothingCountedInTheCurrentWindow() {
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
        strategy.check(bucket, config, out);
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        clock.advance(1000);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
    }
}
