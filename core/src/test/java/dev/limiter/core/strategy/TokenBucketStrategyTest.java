package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import org.junit.jupiter.api.Test;

class TokenBucketStrategyTest extends ManualClockStrategyTest<TokenBucketStrategy> {

    TokenBucketStrategyTest() {
        super(TokenBucketStrategy.INSTANCE);
    }

    @Test
    void tenPerMinuteAdmitsExactlyTenThenOneEverySixSeconds() {
        LimitConfig config = LimitConfig.of(10, 60_000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);

        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(9);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo(START / 1000 + 6);
        assertThat(out[Outcome.LIMIT]).isEqualTo(10);
        assertThat(drain(bucket, config)).isEqualTo(9);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(6_000);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo(START / 1000 + 60);

        for (int i = 1; i <= 20; i++) {
            clock.advance(5_999);
            assertThat(strategy.check(bucket, config, out)).as("refill %d not before 6 s", i).isFalse();
            assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1);
            clock.advance(1);
            assertThat(strategy.check(bucket, config, out)).as("refill %d at 6 s", i).isTrue();
            assertThat(out[Outcome.REMAINING]).isZero();
            assertThat(strategy.check(bucket, config, out)).isFalse();
        }
    }

    @Test
    void tenPerMinuteOverAnHourAdmitsExactlyTheRate() {
        LimitConfig config = LimitConfig.of(10, 60_000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        int admitted = 0;
        for (int second = 0; second < 3600; second++) {
            admitted += drain(bucket, config);
            clock.advance(1000);
        }
        // 10 from the full bucket, then one every 6 s over 3599 s of refill: 599 more
        assertThat(admitted).isEqualTo(10 + 599);
    }

    @Test
    void onePerDayIsExact() {
        LimitConfig config = LimitConfig.of(1, 86_400_000L).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(86_400_000L);
        clock.advance(86_400_000L - 1);
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1);
        clock.advance(1);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
    }

    @Test
    void tenMillionPerSecondIsExact() {
        LimitConfig config = LimitConfig.of(10_000_000, 1000).withCapacity(10_000).withClock(clock);
        assertThat(config.unitsPerMilli()).isEqualTo(10_000);
        assertThat(config.unitsPerPermit()).isEqualTo(1);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(10_000);
        for (int ms = 0; ms < 50; ms++) {
            clock.advance(1);
            assertThat(drain(bucket, config)).isEqualTo(10_000);
        }
        clock.advance(1000); // a second of refill, capped by the capacity
        assertThat(drain(bucket, config)).isEqualTo(10_000);
    }

    @Test
    void threePerSecondDoesNotRoundTheRefill() {
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(3);
        clock.advance(333);
        assertThat(strategy.check(bucket, config, out)).isFalse();
        clock.advance(1); // 334 ms >= 333.33 ms
        assertThat(strategy.check(bucket, config, out)).isTrue();
        int admitted = 0;
        for (int i = 0; i < 30_000; i++) {
            clock.advance(1);
            admitted += drain(bucket, config);
        }
        // refill over 30.334 s minus the permit already taken at 334 ms: floor(30.334 * 3) - 1
        assertThat(admitted).isEqualTo(90);
    }

    @Test
    void longIdleRefillsOnlyToCapacity() {
        LimitConfig config = LimitConfig.of(5, 1000).withCapacity(8).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(8);
        clock.advance(365L * 86_400_000L);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
        assertThat(drain(bucket, config)).isEqualTo(8);
    }

    @Test
    void clockSteppingBackwardsNeitherGoesNegativeNorSticks() {
        LimitConfig config = LimitConfig.of(10, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(10);
        clock.advance(-3_600_000L); // an hour back
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.REMAINING]).isZero();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(100);
        assertThat(strategy.peek(bucket, config, out)).isZero();
        clock.advance(100); // refill resumes from the new time, not an hour later
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        clock.advance(1000);
        assertThat(drain(bucket, config)).isEqualTo(10);
    }

    @Test
    void peekDoesNotTake() {
        LimitConfig config = LimitConfig.of(4, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(4);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(4);
        strategy.check(bucket, config, out);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(3);
        assertThat(strategy.isIdle(bucket, config)).isFalse();
    }

    @Test
    void reconfigureKeepsThePermitsAndRefillsAtTheNewRate() {
        LimitConfig config = LimitConfig.of(10, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        for (int i = 0; i < 6; i++) {
            assertThat(strategy.check(bucket, config, out)).isTrue();
        }
        LimitConfig faster = LimitConfig.of(60, 60_000).withCapacity(10).withClock(clock); // 1/s
        assertThat(strategy.peek(bucket, faster, out)).isEqualTo(4);
        assertThat(drain(bucket, faster)).isEqualTo(4);
        clock.advance(999);
        assertThat(strategy.check(bucket, faster, out)).isFalse();
        clock.advance(1);
        assertThat(strategy.check(bucket, faster, out)).isTrue();

        LimitConfig smaller = LimitConfig.of(2, 1000).withClock(clock);
        clock.advance(60_000);
        assertThat(drain(bucket, smaller)).as("clamped to the new capacity").isEqualTo(2);
    }
}
