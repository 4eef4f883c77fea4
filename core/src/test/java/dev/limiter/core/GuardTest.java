package dev.limiter.core;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.guard.Guard;
import dev.limiter.core.guard.Limit;
import dev.limiter.core.strategy.Strategy;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class GuardTest {

    private final ManualClock clock = new ManualClock();
    private final Guard guard = Guard.create(clock);
    private final long[] out = Outcome.newArray();

    @Test
    void aNamedTokenBucketWithItsNumbers() {
        Limit limit = guard.limit("ip:1.2.3.4", 3, 1, TimeUnit.SECONDS);
        assertThat(limit.strategy()).isSameAs(Strategy.TOKEN_BUCKET.get());
        assertThat(limit.tryAcquire(out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(2);
        assertThat(limit.tryAcquire()).isTrue();
        assertThat(Limit.lastRemaining()).isEqualTo(1);
        assertThat(limit.tryAcquire()).isTrue();
        assertThat(limit.tryAcquire()).isFalse();
        assertThat(Limit.lastRetryAfterMillis()).isEqualTo(334);
        assertThat(limit.remaining()).isZero();
        clock.advance(334);
        assertThat(limit.tryAcquire()).isTrue();
        assertThat(Limit.lastRetryAfterMillis()).isZero();
    }

    @Test
    void registrationReturnsTheSameHandleAndReconfiguresOnChange() {
        Limit first = guard.limit("api", 10, 1, TimeUnit.MINUTES, Strategy.FIXED_WINDOW);
        assertThat(guard.limit("api", 10, 1, TimeUnit.MINUTES, Strategy.FIXED_WINDOW)).isSameAs(first);
        assertThat(guard.get("api")).isSameAs(first);
        Limit again = guard.limit("api", 20, 1, TimeUnit.MINUTES, "fixed-window");
        assertThat(again).isSameAs(first);
        assertThat(first.config().limit()).isEqualTo(20);
        assertThatThrownBy(() -> guard.limit("api", 20, 1, TimeUnit.MINUTES, Strategy.TOKEN_BUCKET))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("fixed-window");
        assertThatThrownBy(() -> guard.limit("other", 1, 1, TimeUnit.SECONDS, "no-such"))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("token-bucket");
        guard.remove("api");
        assertThat(guard.get("api")).isNull();
    }

    @Test
    void aConcurrencyLimitIsReleased() {
        Limit bulkhead = guard.limit("db", 1, 1, TimeUnit.SECONDS, Strategy.CONCURRENCY);
        assertThat(bulkhead.tryAcquire()).isTrue();
        assertThat(bulkhead.tryAcquire()).isFalse();
        bulkhead.release();
        assertThat(bulkhead.tryAcquire()).isTrue();
    }

    @Test
    void keyedLimitersPerName() {
        KeyedLimiter perUser = guard.keyed("per-user", Strategy.SLIDING_WINDOW, LimitConfig.of(2, 1000), 100);
        assertThat(guard.keyed("per-user", Strategy.SLIDING_WINDOW, LimitConfig.of(2, 1000), 100)).isSameAs(perUser);
        assertThat(perUser.tryAcquire("alice", out)).isTrue();
        assertThat(perUser.tryAcquire("alice", out)).isTrue();
        assertThat(perUser.tryAcquire("alice", out)).isFalse();
        assertThat(perUser.tryAcquire("bob", out)).isTrue();
        assertThat(perUser.config().clock()).isSameAs(clock);
    }

    @Test
    void theDefaultGuardUsesTheCoarseClock() {
        Limit limit = Guard.create().limit("x", 1, 1, TimeUnit.HOURS);
        assertThat(limit.tryAcquire()).isTrue();
        assertThat(limit.tryAcquire()).isFalse();
        assertThat(Limit.lastRetryAfterMillis()).isBetween(3_500_000L, 3_600_000L);
    }
}
