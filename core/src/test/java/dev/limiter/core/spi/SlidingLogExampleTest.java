package dev.limiter.core.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.Bucket;
import dev.limiter.core.Contention;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.core.strategy.Strategies;
import org.junit.jupiter.api.RepeatedTest;
import org.junit.jupiter.api.Test;

class SlidingLogExampleTest {

    private final ManualClock clock = new ManualClock();
    private final long[] out = Outcome.newArray();

    @Test
    void isDiscoveredByNameThroughServiceLoader() {
        RateLimitStrategy found = Strategies.byName("sliding-log-example");
        assertThat(found).isInstanceOf(SlidingLogStrategy.class);
        assertThat(Strategies.byName("SLIDING-LOG-EXAMPLE")).isSameAs(found);
        assertThat(Strategies.byName("sliding-log")).as("the built-in").isNotInstanceOf(SlidingLogStrategy.class);
        assertThat(Strategies.names()).contains("sliding-log-example", "sliding-log", "fixed-window", "token-bucket",
                "sliding-window", "leaky-bucket", "concurrency");
        assertThat(Strategies.names().get(0)).isEqualTo("fixed-window"); // built-ins first
    }

    @Test
    void atMostTheLimitInAnyWindowSpan() {
        RateLimitStrategy strategy = Strategies.byName("sliding-log-example");
        LimitConfig config = LimitConfig.of(3, 1000).withClock(clock);
        Bucket bucket = strategy.newBucket(config);
        assertThat(strategy.check(bucket, config, out)).isTrue(); // t = 0
        clock.advance(400);
        assertThat(strategy.check(bucket, config, out)).isTrue(); // t = 400
        assertThat(strategy.check(bucket, config, out)).isTrue(); // t = 400
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(600);
        clock.advance(600); // t = 1000: the first admission has left the window
        assertThat(strategy.check(bucket, config, out)).isTrue();
        assertThat(strategy.check(bucket, config, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(400);
        assertThat(strategy.isIdle(bucket, config)).isFalse();
        clock.advance(1000);
        assertThat(strategy.isIdle(bucket, config)).isTrue();
        assertThat(strategy.peek(bucket, config, out)).isEqualTo(3);
    }

    @RepeatedTest(3)
    void exactUnderContentionThroughTheKeyedStore() throws Exception {
        LocalKeyedLimiter limiter = LocalKeyedLimiter.create(Strategies.byName("sliding-log-example"),
                LimitConfig.of(2_500, 1000).withClock(clock), 10);
        long admitted = Contention.platform(8, t -> {
            long[] o = Outcome.newArray();
            long n = 0;
            for (int i = 0; i < 5_000; i++) {
                if (limiter.tryAcquire("k", o)) {
                    n++;
                }
            }
            return n;
        });
        assertThat(admitted).isEqualTo(2_500);
        clock.advance(1000);
        assertThat(limiter.tryAcquire("k", out)).isTrue();
    }
}
