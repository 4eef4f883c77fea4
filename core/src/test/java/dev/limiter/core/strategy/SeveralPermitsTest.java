package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;

/**
 * A call's cost (several permits at once, all or none) and the refund that gives back what a call took when
 * another limit refused it: for every built-in rate strategy, with the clock frozen so counts are exact.
 */
class SeveralPermitsTest {

    private static final long START = 1_767_225_600_000L; // a whole minute, so 1 s windows start here

    private final ManualClock clock = new ManualClock(START);
    private final long[] out = Outcome.newArray();

    static Stream<RateLimitStrategy> rateStrategies() {
        return Stream.of(FixedWindowStrategy.INSTANCE, SlidingWindowStrategy.INSTANCE, TokenBucketStrategy.INSTANCE,
                LeakyBucketStrategy.INSTANCE, SlidingLogStrategy.INSTANCE);
    }

    private LimitConfig tenPerSecond() {
        return LimitConfig.of(10, 1000).withClock(clock);
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void aCostTakesThatManyPermitsOrNone(RateLimitStrategy strategy) {
        LimitConfig config = tenPerSecond();
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, 4, out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(6);
        assertThat(strategy.check(bucket, config, 5, out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(1);
        // two do not fit in the one left: refused, and the one is still there
        assertThat(strategy.check(bucket, config, 2, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isPositive();
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(1);
        assertThat(strategy.check(bucket, config, 1, out)).isTrue();
        assertThat(strategy.check(bucket, config, 1, out)).isFalse();
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void aRefundGivesBackExactlyWhatWasTaken(RateLimitStrategy strategy) {
        LimitConfig config = tenPerSecond();
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, 3, out)).isTrue();
        long stamp = out[Outcome.STAMP];
        assertThat(strategy.check(bucket, config, 2, out)).isTrue();
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(5);
        strategy.refund(bucket, config, 3, stamp);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(8);
        for (int i = 0; i < 8; i++) {
            assertThat(strategy.check(bucket, config, out)).as("permit %d", i).isTrue();
        }
        assertThat(strategy.check(bucket, config, out)).isFalse();
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void aRefundNeverFillsBeyondTheBudget(RateLimitStrategy strategy) {
        LimitConfig config = tenPerSecond();
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, 4, out)).isTrue();
        long stamp = out[Outcome.STAMP];
        clock.advance(5_000); // the budget has come back whole meanwhile
        strategy.refund(bucket, config, 4, stamp);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(10);
        int admitted = 0;
        while (strategy.check(bucket, config, out)) {
            admitted++;
        }
        assertThat(admitted).isEqualTo(10);
    }

    @Test
    void aFixedWindowRefundIsNotGivenToTheNextWindow() {
        RateLimitStrategy strategy = FixedWindowStrategy.INSTANCE;
        LimitConfig config = tenPerSecond();
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, 5, out)).isTrue();
        long stamp = out[Outcome.STAMP];
        clock.advance(1_000);
        assertThat(strategy.check(bucket, config, 10, out)).isTrue(); // the next window, spent whole
        strategy.refund(bucket, config, 5, stamp);
        assertThat(strategy.peek(bucket, config, out)).isZero();
    }

    @Test
    void aSlidingWindowRefundAfterARollComesOffThePreviousCount() {
        RateLimitStrategy strategy = SlidingWindowStrategy.INSTANCE;
        LimitConfig config = tenPerSecond();
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, 10, out)).isTrue();
        long stamp = out[Outcome.STAMP];
        clock.advance(1_000); // the 10 now weigh fully as the previous window's
        assertThat(strategy.peek(bucket, config, out)).isZero();
        strategy.refund(bucket, config, 4, stamp);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(4);
        clock.advance(1_000); // two windows on: the refund has nothing left to take from
        strategy.refund(bucket, config, 6, stamp);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(10);
    }

    @Test
    void aBucketReconfiguredInBetweenKeepsThePermits() {
        RateLimitStrategy strategy = TokenBucketStrategy.INSTANCE;
        LimitConfig config = tenPerSecond();
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, 4, out)).isTrue();
        LimitConfig raised = LimitConfig.of(20, 1000).withClock(clock);
        strategy.peek(bucket, raised, out); // read-only: converts nothing
        assertThat(strategy.check(bucket, raised, 1, out)).isTrue(); // converts the bucket to the new scale
        long before = strategy.peek(bucket, raised, out);
        strategy.refund(bucket, config, 4, 0); // a refund in the old scale does not touch the new one
        assertThat(strategy.peek(bucket, raised, out)).isEqualTo(before);
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void aRetiredBucketStaysRetiredThroughARefund(RateLimitStrategy strategy) {
        LimitConfig config = tenPerSecond();
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, 2, out)).isTrue();
        long stamp = out[Outcome.STAMP];
        clock.advance(60_000);
        assertThat(strategy.retire(bucket, config)).isTrue();
        strategy.refund(bucket, config, 2, stamp);
        assertThat(strategy.isRetired(bucket)).isTrue();
    }

    @Test
    void aStrategyThatCannotTakeSeveralSaysSo() {
        ConcurrencyStrategy strategy = ConcurrencyStrategy.INSTANCE;
        LimitConfig config = tenPerSecond();
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.takesSeveral()).isFalse();
        assertThat(strategy.check(bucket, config, 1, out)).isTrue();
        assertThatThrownBy(() -> strategy.check(bucket, config, 2, out))
                .isInstanceOf(UnsupportedOperationException.class);
    }
}
