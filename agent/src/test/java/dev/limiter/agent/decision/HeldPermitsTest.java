package dev.limiter.agent.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.core.strategy.Strategies;
import org.junit.jupiter.api.Test;

/** The permit stack: releases newest first down to a height, and hands its permits over whole. */
class HeldPermitsTest {

    private static KeyedLimiter concurrency(int limit) {
        return LocalKeyedLimiter.create(Strategies.byName("concurrency"), LimitConfig.of(limit, 1000), 100);
    }

    @Test
    void takeAllMovesEveryPermitAndLeavesNoneBehind() {
        KeyedLimiter limiter = concurrency(3);
        long[] out = Outcome.newArray();
        HeldPermits permits = new HeldPermits();
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.tryAcquire("k", out)).isTrue();
            permits.hold(limiter, "k");
        }
        HeldPermits taken = permits.takeAll();
        assertThat(permits.height()).isZero();
        assertThat(taken.height()).isEqualTo(3);
        permits.releaseTo(0);
        assertThat(limiter.remaining("k", out)).as("the emptied stack releases nothing").isZero();
        taken.releaseTo(0);
        assertThat(limiter.remaining("k", out)).isEqualTo(3);
    }

    @Test
    void aFailingReleaseDoesNotKeepTheOthers() {
        KeyedLimiter limiter = concurrency(2);
        long[] out = Outcome.newArray();
        HeldPermits permits = new HeldPermits();
        limiter.tryAcquire("a", out);
        permits.hold(limiter, "a");
        permits.hold(null, "broken"); // a release that throws
        limiter.tryAcquire("b", out);
        permits.hold(limiter, "b");
        permits.releaseTo(0);
        assertThat(permits.height()).isZero();
        assertThat(limiter.remaining("a", out)).isEqualTo(2);
        assertThat(limiter.remaining("b", out)).isEqualTo(2);
    }
}
