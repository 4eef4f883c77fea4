package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The scripts read the Redis server's {@code TIME}, which is the server host's wall clock: NTP can step it back.
 * A test cannot step a server's clock, but it can leave the state a step back leaves behind: a key last written
 * at a time the server's clock has not reached yet (an hour ahead of {@code TIME}). Every script must then
 * neither keep the key throttled for that hour nor hand out more than one fresh budget, and no check may fail.
 * Fixed and sliding windows start afresh (as core's strategies do), a sliding log drops the entries more than a
 * window ahead; the buckets keep their debt and drain it from the new time; a bulkhead's lease from the future
 * lasts at most one lease.
 */
class RedisClockStepTest {

    private static final long HOUR = 3_600_000L;

    private static RedisServer server;
    private static RedisStore store;

    @BeforeAll
    static void start() {
        server = RedisServer.start();
        // generous timeout: a check that timed out would fall back locally and hide what the script did
        store = RedisStore.connect(RedisSettings.of(server.uri()).withTimeout(Duration.ofSeconds(2))
                .withConcurrencyLease(Duration.ofSeconds(1)));
    }

    @AfterAll
    static void stop() {
        store.close();
        server.close();
    }

    private static long serverMillis() {
        try (Jedis j = server.jedis()) {
            List<String> t = j.time();
            return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
        }
    }

    /** Writes {@code fields} into the key of {@code rule}/{@code key}, as a clock an hour ahead would have. */
    private static void leave(String rule, String key, Map<String, String> fields) {
        try (Jedis j = server.jedis()) {
            j.hset("limiter:{" + rule + ":" + key + "}", fields);
        }
    }

    private static int drain(KeyedLimiter limiter, String key, long[] out) {
        int admitted = 0;
        while (admitted < 1000 && limiter.tryAcquire(key, out)) {
            admitted++;
        }
        return admitted;
    }

    @Test
    void gcraDebtWrittenInTheFutureDrainsFromTheNewTime() throws InterruptedException {
        for (String strategy : List.of("token-bucket", "leaky-bucket")) {
            // 10 per second: one permit is 100 units of a millisecond's 1 (perMilli 1, cost 100)
            KeyedLimiter limiter = store.limiter("step-" + strategy, strategy, LimitConfig.of(10, 1000), 10);
            long[] out = Outcome.newArray();
            long ahead = serverMillis() + HOUR;
            leave("step-" + strategy, "k", Map.of("d", "1000", "t", String.valueOf(ahead), "k", "100", "m", "1"));
            assertThat(limiter.tryAcquire("k", out)).as(strategy + ": a full debt still rejects").isFalse();
            assertThat(out[Outcome.RETRY_AFTER_MILLIS]).as(strategy + ": retry within one permit, not an hour")
                    .isBetween(1L, 100L);
            // 300 ms of the new time drains 3 permits: the key is not waiting for the old time
            Thread.sleep(300);
            int admitted = drain(limiter, "k", out);
            assertThat(admitted).as(strategy + ": drained from the new time").isBetween(2, 5);
            assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isBetween(1L, 100L);
            assertThat(store.stats().getErrors()).isZero();
            assertThat(store.stats().getFallbacks()).isZero();
        }
    }

    @Test
    void windowsWrittenInTheFutureStartAfreshOnce() {
        for (String strategy : List.of("fixed-window", "sliding-window")) {
            KeyedLimiter limiter = store.limiter("step-" + strategy, strategy, LimitConfig.of(5, 1000), 10);
            long[] out = Outcome.newArray();
            long aheadWindow = (serverMillis() + HOUR) / 1000;
            Map<String, String> full = strategy.equals("fixed-window")
                    ? Map.of("w", String.valueOf(aheadWindow), "n", "5")
                    : Map.of("w", String.valueOf(aheadWindow), "p", "5", "c", "5");
            leave("step-" + strategy, "k", full);
            int admitted = drain(limiter, "k", out);
            // one fresh budget: the sliding window may also see part of it weighted as its previous window
            assertThat(admitted).as(strategy + ": a fresh window, one budget").isBetween(1, 5);
            assertThat(out[Outcome.RETRY_AFTER_MILLIS]).as(strategy + ": no hour's wait")
                    .isBetween(1L, 2000L);
            assertThat(store.stats().getErrors()).isZero();
        }
    }

    @Test
    void aSlidingLogWrittenInTheFutureGivesOneBudgetOrWaitsAtMostAWindowMore() {
        KeyedLimiter limiter = store.limiter("step-sliding-log", "sliding-log", LimitConfig.of(5, 1000), 10);
        long[] out = Outcome.newArray();
        String key = "limiter:{step-sliding-log:k}";
        long ahead = serverMillis() + HOUR;
        try (Jedis j = server.jedis()) {
            for (int i = 0; i < 5; i++) {
                j.rpush(key, String.valueOf(ahead));
            }
        }
        assertThat(drain(limiter, "k", out)).as("an hour ahead: a step back's, one fresh budget").isEqualTo(5);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isBetween(1L, 1000L);
        // a small step: entries 300 ms ahead still count, for at most the step and a window
        try (Jedis j = server.jedis()) {
            j.del(key);
            long soon = serverMillis() + 300;
            for (int i = 0; i < 5; i++) {
                j.rpush(key, String.valueOf(soon));
            }
        }
        assertThat(limiter.tryAcquire("k", out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isBetween(1L, 1300L);
        assertThat(store.stats().getErrors()).isZero();
        assertThat(store.stats().getFallbacks()).isZero();
    }

    @Test
    void aBulkheadLeaseFromTheFutureLastsAtMostOneLease() {
        Duration lease = store.settings().concurrencyLease();
        KeyedLimiter limiter = store.limiter("step-concurrency", "concurrency", LimitConfig.of(2, 1000), 10);
        long[] out = Outcome.newArray();
        // two permits held by an instance that has since crashed, its lease renewed an hour "ahead"
        leave("step-concurrency", "k", Map.of("crashed", "2", "crashed:t", String.valueOf(serverMillis() + HOUR)));
        assertThat(limiter.tryAcquire("k", out)).isFalse();
        // the crashed instance's permits come back after one lease of the new time, not an hour
        org.awaitility.Awaitility.await().atMost(lease.plusSeconds(5)).pollInterval(Duration.ofMillis(100))
                .until(() -> limiter.remaining("k", out) == 2);
        assertThat(limiter.tryAcquire("k", out)).isTrue();
        assertThat(limiter.tryAcquire("k", out)).isTrue();
        assertThat(limiter.tryAcquire("k", out)).isFalse();
        limiter.release("k");
        limiter.release("k");
        assertThat(store.stats().getErrors()).isZero();
    }
}
