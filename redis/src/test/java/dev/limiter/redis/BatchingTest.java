package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Opt-in batching: a JVM reserves {@code batch} permits per round trip. Never more than the limit across JVMs;
 * at most {@code (batch - 1)} per JVM fewer; far fewer round trips on a hot key.
 */
class BatchingTest {

    private static final long WINDOW = LimitConfig.MAX_WINDOW_MILLIS;
    /** Exact totals need Redis to answer every check: a timeout would (correctly) fall back to local limits. */
    private static final Duration SLOW_MACHINE = Duration.ofSeconds(2);

    @Test
    void batchedFixedWindowNeverOverAdmitsAndStrandsAtMostASlicePerJvm() throws InterruptedException {
        measure("fixed-window", LimitConfig.of(1000, WINDOW));
    }

    @Test
    void batchedTokenBucketNeverOverAdmitsAndStrandsAtMostASlicePerJvm() throws InterruptedException {
        measure("token-bucket", LimitConfig.of(1000, WINDOW));
    }

    private static void measure(String strategy, LimitConfig config) throws InterruptedException {
        int batch = 20;
        try (RedisServer server = RedisServer.start()) {
            List<RedisStore> stores = new ArrayList<>();
            List<KeyedLimiter> limiters = new ArrayList<>();
            try {
                for (int i = 0; i < 3; i++) {
                    RedisStore store = RedisStore.connect(RedisSettings.of(server.uri()).withBatch(batch).withTimeout(SLOW_MACHINE));
                    stores.add(store);
                    limiters.add(store.limiter("hot", strategy, config, 100));
                }
                try (Jedis j = server.jedis()) {
                    j.configResetStat();
                }
                // 3 JVMs x 3 threads x 400 = 3600 attempts for 1000 permits
                int admitted = Contention.hammer(limiters, 3, 400, "hot-key");
                long roundTrips = server.calls("evalsha") + server.calls("eval");
                System.out.printf("%s batch %d: admitted %d of limit 1000, %d round trips for 3600 checks%n",
                        strategy, batch, admitted, roundTrips);
                for (RedisStore store : stores) {
                    assertThat(store.stats().getFallbacks()).as("checks not decided by Redis").isZero();
                }
                assertThat(admitted).isLessThanOrEqualTo(1000).isGreaterThanOrEqualTo(1000 - 3 * (batch - 1));
                // one round trip reserves up to 20 permits; once exhausted, a JVM repeats Redis' rejection locally
                // until its retry-after (49 days here): about 1000 / 20 reservations plus a few rejections per JVM
                assertThat(roundTrips).isLessThan(200);

                // the stranded permits are lost for the window, never handed out twice
                long[] out = Outcome.newArray();
                try (RedisStore other = RedisStore.connect(RedisSettings.of(server.uri()).withTimeout(SLOW_MACHINE))) {
                    KeyedLimiter unbatched = other.limiter("hot", strategy, config, 100);
                    assertThat(unbatched.tryAcquire("hot-key", out)).isFalse();
                }
            } finally {
                stores.forEach(RedisStore::close);
            }
        }
    }

    @Test
    void batchingIsOffByDefault() {
        assertThat(RedisSettings.of("redis://x").batch()).isEqualTo(1);
    }
}
