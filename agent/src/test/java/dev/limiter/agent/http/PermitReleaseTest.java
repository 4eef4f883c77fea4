package dev.limiter.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.decision.HeldPermits;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.core.strategy.Strategies;
import org.junit.jupiter.api.Test;

/**
 * The once-only give-back of an exchange's concurrency permits: Reactor may signal {@code doFinally} after a
 * handler that threw was already released, and a cancel may race a completion; whatever comes first releases,
 * nothing after it does.
 */
class PermitReleaseTest {

    private static KeyedLimiter concurrency(int limit) {
        return LocalKeyedLimiter.create(Strategies.byName("concurrency"), LimitConfig.of(limit, 1000), 100);
    }

    @Test
    void theFirstSignalReleasesAndLaterOnesDoNothing() {
        KeyedLimiter limiter = concurrency(2);
        long[] out = Outcome.newArray();
        HeldPermits held = new HeldPermits();
        assertThat(limiter.tryAcquire("k", out)).isTrue();
        held.hold(limiter, "k");
        // another exchange holds the second permit all along: a double release would free a third
        assertThat(limiter.tryAcquire("k", out)).isTrue();

        PermitRelease release = new PermitRelease(held, null);
        assertThat(held.height()).as("taken over").isZero();
        release.release(); // the handler threw
        release.accept("ON_ERROR"); // and Reactor signals the end as well
        release.accept("CANCEL");

        assertThat(limiter.tryAcquire("k", out)).as("the released permit").isTrue();
        assertThat(limiter.tryAcquire("k", out)).as("no permit released twice").isFalse();
    }

    @Test
    void racingSignalsReleaseExactlyOnce() throws Exception {
        KeyedLimiter limiter = concurrency(1);
        long[] out = Outcome.newArray();
        for (int round = 0; round < 200; round++) {
            assertThat(limiter.tryAcquire("k", out)).as("round %d", round).isTrue();
            HeldPermits held = new HeldPermits();
            held.hold(limiter, "k");
            PermitRelease release = new PermitRelease(held, null);
            Thread cancel = new Thread(() -> release.accept("CANCEL"));
            cancel.start();
            release.accept("ON_COMPLETE");
            cancel.join();
            assertThat(limiter.tryAcquire("k", out)).as("round %d: released", round).isTrue();
            assertThat(limiter.tryAcquire("k", out)).as("round %d: once", round).isFalse();
            limiter.release("k");
        }
    }
}
