package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The retire marker of every rate strategy: only an idle bucket retires, idempotently; a retired bucket rejects
 * and is never revived (also after the clock moves on, or under another scale), reads as a fresh bucket and is
 * idle. The races it closes are model-checked in {@code RejectKeysModelTest} and {@code AllowKeysModelTest}.
 */
class RetireTest {

    static final long START = 1_767_225_600_000L;

    static Stream<RateLimitStrategy> strategies() {
        return Stream.of(FixedWindowStrategy.INSTANCE, SlidingWindowStrategy.INSTANCE, TokenBucketStrategy.INSTANCE,
                LeakyBucketStrategy.INSTANCE, SlidingLogStrategy.INSTANCE);
    }

    private final ManualClock clock = new ManualClock(START);
    private final long[] out = Outcome.newArray();

    @ParameterizedTest
    @MethodSource("strategies")
    void onlyAnIdleBucketRetiresAndARetiredOneIsNeverRevived(RateLimitStrategy strategy) {
        LimitConfig config = LimitConfig.of(3, 1_000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        long slot0 = bucket.slot0();
        long slot1 = bucket.slot1();
        assertThat(strategy.retire(bucket, config)).as("not idle: one permit taken").isFalse();
        assertThat(bucket.slot0()).isEqualTo(slot0);
        assertThat(bucket.slot1()).isEqualTo(slot1);
        assertThat(strategy.isRetired(bucket)).isFalse();

        clock.advance(5_000); // idle again
        assertThat(strategy.retire(bucket, config)).isTrue();
        assertThat(strategy.retire(bucket, config)).as("idempotent").isTrue();
        assertThat(strategy.isRetired(bucket)).isTrue();
        assertThat(strategy.isIdle(bucket, config)).isTrue();
        assertThat(strategy.peek(bucket, config, out)).as("reads as a fresh bucket").isEqualTo(3);

        for (int i = 0; i < 50; i++) { // across windows
            assertThat(strategy.check(bucket, config, out)).as("check %d", i).isFalse();
            assertThat(out[Outcome.REMAINING]).isZero();
            clock.advance(997);
        }
        // the windows whose 32-bit index the fixed window's marker (all ones) reads as current or next
        clock.set(((1L << 32) - 3) * 1_000);
        for (int i = 0; i < 4; i++) {
            assertThat(strategy.check(bucket, config, out)).as("window 2^32 - %d", 3 - i).isFalse();
            clock.advance(1_000);
        }
        LimitConfig other = LimitConfig.of(7, 60_000).withClock(clock); // another scale: no conversion back
        assertThat(strategy.check(bucket, other, out)).isFalse();
        assertThat(strategy.isRetired(bucket)).isTrue();
        assertThat(strategy.retire(bucket, other)).isTrue();
    }

    @ParameterizedTest
    @MethodSource("strategies")
    void aFreshBucketRetiresAtOnce(RateLimitStrategy strategy) {
        LimitConfig config = LimitConfig.of(1, 2).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.retire(bucket, config)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(strategy.isRetired(bucket)).isTrue();
    }

    static Stream<RateLimitStrategy> scaled() {
        return Stream.of(TokenBucketStrategy.INSTANCE, LeakyBucketStrategy.INSTANCE);
    }

    /** Token bucket and GCRA keep a bucket in its old scale until its next check; retire judges it there. */
    @ParameterizedTest
    @MethodSource("scaled")
    void aBucketInAnOlderScaleRetiresByItsOwnState(RateLimitStrategy strategy) {
        LimitConfig config = LimitConfig.of(10, 1_000).withClock(clock);
        LimitConfig reloaded = LimitConfig.of(10, 60_000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, out)).isTrue();
        clock.advance(10);
        assertThat(strategy.retire(bucket, reloaded)).as("a permit still counts under the new config").isFalse();
        assertThat(strategy.isRetired(bucket)).isFalse();
        clock.advance(120_000);
        assertThat(strategy.retire(bucket, reloaded)).isTrue();
        assertThat(strategy.check(bucket, reloaded, out)).isFalse();
    }
}
