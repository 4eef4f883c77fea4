package dev.limiter.core.store;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;

import dev.limiter.core.Contention;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.FixedWindowStrategy;
import dev.limiter.core.strategy.LeakyBucketStrategy;
import dev.limiter.core.strategy.SlidingLogStrategy;
import dev.limiter.core.strategy.SlidingWindowStrategy;
import dev.limiter.core.strategy.TokenBucketStrategy;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Reserve-then-refund under contention: many threads take random costs from one key under two limits with the
 * clock frozen, so every permit is accounted for. Whatever the interleaving of takes and refunds, each limit must
 * end with exactly its budget minus the permits of the admitted calls: a lost refund shows as too few left, a
 * refund given twice (or to the wrong window) as too many.
 */
class AllOfContentionTest {

    private static final int THREADS = 8;
    private static final int CALLS = 5_000;

    static Stream<RateLimitStrategy> rateStrategies() {
        return Stream.of(FixedWindowStrategy.INSTANCE, SlidingWindowStrategy.INSTANCE, TokenBucketStrategy.INSTANCE,
                LeakyBucketStrategy.INSTANCE, SlidingLogStrategy.INSTANCE);
    }

    private static KeyedLimiter limiter(RateLimitStrategy strategy, ManualClock clock, long limit, long window) {
        LimitConfig config = LimitConfig.of(limit, window).withClock(clock);
        if (strategy.usesCapacity()) {
            config = config.withCapacity(limit);
        }
        return LocalKeyedLimiter.create(strategy, config, 16);
    }

    private static void hammer(RateLimitStrategy strategy, boolean virtual) throws Exception {
        ManualClock clock = new ManualClock(1_767_225_600_000L);
        // the tighter limit second, so many calls take from the first and must give it back
        KeyedLimiter wide = limiter(strategy, clock, 3_000, 3_600_000);
        KeyedLimiter tight = limiter(strategy, clock, 1_000, 60_000);
        KeyedLimiter[] limits = {wide, tight};
        Contention.Task task = t -> {
            long[] out = Outcome.newArray();
            long[] scratch = Outcome.newArray();
            long[] stamps = new long[2];
            long taken = 0;
            for (int i = 0; i < CALLS; i++) {
                long cost = 1 + (i * 7 + t) % 3;
                if (AllOf.admitted(AllOf.tryAcquire(limits, "k", cost, out, scratch, stamps))) {
                    taken += cost;
                }
            }
            return taken;
        };
        long taken = virtual ? Contention.virtual(THREADS * 8, task) : Contention.platform(THREADS, task);
        long[] out = Outcome.newArray();
        assertThat(taken).as("admitted permits").isBetween(998L, 1_000L);
        assertThat(tight.remaining("k", out)).as("tight limit left").isEqualTo(1_000 - taken);
        assertThat(wide.remaining("k", out)).as("wide limit left").isEqualTo(3_000 - taken);
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void noPermitIsLostOrCreatedOnPlatformThreads(RateLimitStrategy strategy) throws Exception {
        for (int round = 0; round < 3; round++) {
            hammer(strategy, false);
        }
    }

    @ParameterizedTest
    @MethodSource("rateStrategies")
    void noPermitIsLostOrCreatedOnVirtualThreads(RateLimitStrategy strategy) throws Exception {
        assumeThat(Contention.virtualThreadsAvailable()).isTrue();
        hammer(strategy, true);
    }
}
