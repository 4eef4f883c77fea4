package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import org.junit.jupiter.api.Test;

class ConcurrencyStrategyTest {

    private final ManualClock clock = new ManualClock();
    private final ConcurrencyStrategy strategy = ConcurrencyStrategy.INSTANCE;
    private final LimitConfig config = LimitConfig.of(2, 500).withClock(clock);
    private final long[] out = Outcome.newArray();

    @Test
    void atMostTheLimitInFlight() {
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(1);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isZero();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(500);
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        strategy.release(bucket, config);
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(1);
        assertThat(strategy.check(bucket, config, out)).isTrue();
    }

    @Test
    void releaseWithoutAcquireNeverGoesNegative() {
        Bucket bucket = strategy.newBucket(config);
        strategy.release(bucket, config);
        strategy.release(bucket, config);
        assertThat(ConcurrencyStrategy.inFlight(bucket)).isZero();
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
    }

    @Test
    void onlyAnIdleBucketCanBeRetiredAndARetiredBucketAdmitsNothing() {
        Bucket bucket = strategy.newBucket(config);
        strategy.check(bucket, config, out);
        assertThat(strategy.retire(bucket, config)).isFalse();
        assertThat(strategy.isRetired(bucket)).isFalse();
        strategy.release(bucket, config);
        assertThat(strategy.retire(bucket, config)).isTrue();
        assertThat(strategy.isRetired(bucket)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        strategy.release(bucket, config);
        assertThat(strategy.isRetired(bucket)).isTrue();
    }

    @Test
    void retireIsIdempotentUnderARace() throws Exception {
        for (int round = 0; round < 50; round++) {
            Bucket bucket = strategy.newBucket(config);
            long retired = dev.limiter.core.Contention.platform(4, t -> strategy.retire(bucket, config) ? 1 : 0);
            assertThat(retired).as("every racing retire sees the bucket retired").isEqualTo(4);
        }
    }

    @Test
    void aLowerLimitKeepsTheCallsInFlight() {
        Bucket bucket = strategy.newBucket(config);
        strategy.check(bucket, config, out);
        strategy.check(bucket, config, out);
        LimitConfig one = LimitConfig.of(1, 500).withClock(clock);
        assertThat(strategy.check(bucket, one, out)).isFalse();
        strategy.release(bucket, one);
        assertThat(strategy.check(bucket, one, out)).isFalse();
        strategy.release(bucket, one);
        assertThat(strategy.check(bucket, one, out)).isTrue();
    }
}
