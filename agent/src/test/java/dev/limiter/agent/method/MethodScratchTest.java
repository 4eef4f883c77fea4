package dev.limiter.agent.method;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.core.strategy.Strategies;
import org.junit.jupiter.api.Test;

/** The per-thread permit stack: each mark releases exactly the permits pushed after it, marks are reused. */
class MethodScratchTest {

    private static KeyedLimiter concurrency(int limit) {
        return LocalKeyedLimiter.create(Strategies.byName("concurrency"), LimitConfig.of(limit, 1000), 100);
    }

    @Test
    void nestedMarksReleaseTheirOwnPermitsOnly() {
        KeyedLimiter limiter = concurrency(10);
        long[] out = Outcome.newArray();
        MethodScratch scratch = new MethodScratch();
        for (int i = 0; i < 12; i++) {
            limiter.tryAcquire("k", out);
            scratch.permits.hold(limiter, "k");
        }
        assertThat(limiter.remaining("k", out)).isZero();
        MethodScratch.Mark inner = scratch.mark(7);
        assertThat(inner.owner).isSameAs(scratch);
        inner.owner.permits.releaseTo(inner.height);
        assertThat(scratch.permits.height()).isEqualTo(7);
        scratch.permits.releaseTo(3);
        assertThat(scratch.permits.height()).isEqualTo(3);
        scratch.permits.releaseTo(0);
        assertThat(limiter.remaining("k", out)).isEqualTo(10);
        assertThat(scratch.mark(7)).isSameAs(inner);
        assertThat(scratch.mark(40).height).isEqualTo(40);
    }
}
