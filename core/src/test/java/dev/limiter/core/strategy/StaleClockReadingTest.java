package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.Clock;
import org.junit.jupiter.api.Test;

/**
 * A check that read the clock, waited (preempted) and reached the bucket after another thread had taken a permit
 * at a later time, replayed on one thread: the late check's first reading is old, any later one current. It must
 * not take its old reading for a clock step back and rewind the state to it, which gave the permits of the time
 * it missed out again (the model tests found these interleavings; here each is pinned down deterministically).
 */
class StaleClockReadingTest {

    private static final long T0 = 1_767_225_600_000L;
    private static final long T2 = T0 + 2;

    private final long[] out = Outcome.newArray();

    /** Reads {@code first} once, then {@code current} for ever: a reading taken before a wait, then fresh ones. */
    private static Clock staleThenCurrent(long first, long current) {
        long[] next = {first};
        return () -> {
            long reading = next[0];
            next[0] = current;
            return reading;
        };
    }

    /**
     * Admits at T0 and at T2 (fresh readings), then a check whose first reading is T0, then a fresh check at T2;
     * returns how many of the last two were admitted.
     */
    private int lateCheckThenFresh(RateLimitStrategy strategy, LimitConfig atT0, LimitConfig atT2) {
        Bucket bucket = strategy.newBucket(atT0);
        assertThat(strategy.check(bucket, atT0, out)).isTrue();
        assertThat(strategy.check(bucket, atT2, out)).isTrue();
        int admitted = 0;
        if (strategy.check(bucket, atT2.withClock(staleThenCurrent(T0, T2)), out)) {
            admitted++;
        }
        if (strategy.check(bucket, atT2, out)) {
            admitted++;
        }
        return admitted;
    }

    @Test
    void tokenBucketDoesNotRefillTwice() {
        // 1 per 2 ms, capacity 1: one permit at T0, one refilled by T2, none left
        LimitConfig config = LimitConfig.of(1, 2);
        assertThat(lateCheckThenFresh(TokenBucketStrategy.INSTANCE, config.withClock(() -> T0),
                config.withClock(() -> T2))).isZero();
    }

    @Test
    void leakyBucketDoesNotLeakTwice() {
        LimitConfig config = LimitConfig.of(1, 2);
        assertThat(lateCheckThenFresh(LeakyBucketStrategy.INSTANCE, config.withClock(() -> T0),
                config.withClock(() -> T2))).isZero();
    }

    @Test
    void fixedWindowKeepsTheCountOfTheWindowInForce() {
        // 1 per 1 ms: T0 and T2 are two windows apart, and T2's window is spent
        LimitConfig config = LimitConfig.of(1, 1);
        assertThat(lateCheckThenFresh(FixedWindowStrategy.INSTANCE, config.withClock(() -> T0),
                config.withClock(() -> T2))).isZero();
    }

    @Test
    void slidingLogRecordsTheLateCheckWhenItHappened() {
        // 1 per 2 ms: the entry of T2 fills the log; the late check's old reading must not pass it off as ahead
        LimitConfig config = LimitConfig.of(1, 2);
        assertThat(lateCheckThenFresh(SlidingLogStrategy.INSTANCE, config.withClock(() -> T0),
                config.withClock(() -> T2))).isZero();
        // 3 per 3 ms: the late check may be admitted, but recorded at T2 (the entry before it), not at T0: the
        // fresh check at T2 finds the log full
        LimitConfig three = LimitConfig.of(3, 3);
        assertThat(lateCheckThenFresh(SlidingLogStrategy.INSTANCE, three.withClock(() -> T0),
                three.withClock(() -> T2))).isEqualTo(1);
        Bucket bucket = SlidingLogStrategy.INSTANCE.newBucket(three.withClock(() -> T0));
        SlidingLogStrategy.INSTANCE.check(bucket, three.withClock(() -> T0), out);
        SlidingLogStrategy.INSTANCE.check(bucket, three.withClock(() -> T2), out);
        SlidingLogStrategy.INSTANCE.check(bucket, three.withClock(staleThenCurrent(T0, T2)), out);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo(Outcome.ceilSeconds(T2 + 3));
        // at T0 + 3 only the entry of T0 has left: one permit, not two
        assertThat(SlidingLogStrategy.INSTANCE.peek(bucket, three.withClock(() -> T0 + 3), out)).isEqualTo(1);
    }

    @Test
    void slidingWindowKeepsTheCountsOfTheWindowInForce() {
        LimitConfig config = LimitConfig.of(1, 1);
        assertThat(lateCheckThenFresh(SlidingWindowStrategy.INSTANCE, config.withClock(() -> T0),
                config.withClock(() -> T2))).isZero();
    }
}
