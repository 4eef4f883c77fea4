package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import org.junit.jupiter.api.Test;

class LeakyBucketStrategyTest extends ManualClockStrategyTest<LeakyBucketStrategy> {

    LeakyBucketStrategyTest() {
        super(LeakyBucketStrategy.INSTANCE);
    }

    @Test
    void capacityOneAdmitsSmoothlyAtTheEmissionInterval() {
        LimitConfig config = LimitConfig.of(4, 1000).withCapacity(1).withClock(clock); // one per 250 ms
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(out).containsExactly(0, START / 1000 + 1, 0, 4, 0);
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(250);
        long last = clock.millis();
        int admitted = 1;
        for (int ms = 1; ms <= 10_000; ms++) {
            clock.advance(1);
            if (strategy.check(bucket, config, out)) {
                assertThat(clock.millis() - last).isEqualTo(250);
                last = clock.millis();
                admitted++;
            }
        }
        assertThat(admitted).isEqualTo(41);
    }

    @Test
    void burstToleranceThenConstantRate() {
        LimitConfig config = LimitConfig.of(10, 60_000).withCapacity(3).withClock(clock); // one per 6 s
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(3);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(6000);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo(START / 1000 + 18);
        clock.advance(5999);
        assertThat(strategy.check(bucket, config, out)).isFalse();
        clock.advance(1);
        assertThat(drain(bucket, config)).isEqualTo(1);
    }

    @Test
    void onePerDayAndTenMillionPerSecond() {
        LimitConfig daily = LimitConfig.of(1, 86_400_000L).withCapacity(1).withClock(clock);
        Bucket day = strategy.newBucket(daily);
        assertThat(drain(day, daily)).isEqualTo(1);
        clock.advance(86_400_000L - 1);
        assertThat(drain(day, daily)).isZero();
        clock.advance(1);
        assertThat(drain(day, daily)).isEqualTo(1);

        // time has millisecond resolution: the tolerance must hold one millisecond's worth (10 000 permits),
        // or the meter admits at most "capacity" per millisecond
        LimitConfig fast = LimitConfig.of(10_000_000, 1000).withCapacity(10_000).withClock(clock);
        Bucket bucket = strategy.newBucket(fast);
        int admitted = 0;
        for (int ms = 0; ms < 100; ms++) {
            clock.advance(1);
            admitted += drain(bucket, fast);
        }
        assertThat(admitted).isEqualTo(100 * 10_000);
        LimitConfig tooSmall = LimitConfig.of(10_000_000, 1000).withCapacity(1).withClock(clock);
        Bucket smooth = strategy.newBucket(tooSmall);
        clock.advance(1);
        assertThat(drain(smooth, tooSmall)).isEqualTo(1);
    }

    @Test
    void clockSteppingBackwardsDoesNotWaitForTheOldTime() {
        LimitConfig config = LimitConfig.of(10, 1000).withCapacity(2).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(2);
        clock.advance(-3_600_000L);
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(100);
        clock.advance(100);
        assertThat(drain(bucket, config)).isEqualTo(1);
    }

    @Test
    void idleAfterTheDebtHasLeaked() {
        LimitConfig config = LimitConfig.of(10, 1000).withCapacity(5).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
        assertThat(drain(bucket, config)).isEqualTo(5);
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        clock.advance(499);
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(4);
        clock.advance(1);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
    }

    @Test
    void reconfigureCarriesTheDebtInPermits() {
        LimitConfig config = LimitConfig.of(10, 1000).withCapacity(5).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(drain(bucket, config)).isEqualTo(5); // debt: 5 permits
        LimitConfig slower = LimitConfig.of(1, 1000).withCapacity(6).withClock(clock);
        assertThat(drain(bucket, slower)).isEqualTo(1);
        clock.advance(999);
        assertThat(drain(bucket, slower)).isZero();
        clock.advance(1);
        assertThat(drain(bucket, slower)).isEqualTo(1);
    }
}
