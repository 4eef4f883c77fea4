package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.store.AllOf;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import redis.clients.jedis.Jedis;

/**
 * Several limits of one key and a call's cost on a real Redis shared by three stores (as three JVMs): one script
 * run decides every limit, a refused call takes nothing from any, and the counts are exact across stores.
 */
class RedisSeveralLimitsTest {

    private static RedisServer server;
    private static final List<RedisStore> stores = new ArrayList<>();

    @BeforeAll
    static void start() {
        server = RedisServer.start();
        for (int i = 0; i < 3; i++) {
            stores.add(RedisStore.connect(RedisSettings.of(server.uri()).withTimeout(Duration.ofSeconds(2))));
        }
    }

    @AfterAll
    static void stop() {
        stores.forEach(RedisStore::close);
        server.close();
    }

    /** The limiters of rule {@code rule}'s limits in {@code store}, as the agent's slots name them. */
    private static KeyedLimiter[] tier(RedisStore store, String rule, String strategy, LimitConfig... configs) {
        KeyedLimiter[] limiters = new KeyedLimiter[configs.length];
        for (int i = 0; i < configs.length; i++) {
            limiters[i] = store.limiter(rule + "/@" + configs[i].windowMillis() + "ms", strategy, configs[i], 1000);
        }
        return limiters;
    }

    /**
     * Waits out the last half-minute of the server's hour: the hour-long (and two-hour) fixed windows below are
     * aligned to it, and one that ended during a test would hand out a fresh budget.
     */
    private static void clearOfTheHourEnd() throws InterruptedException {
        long left = 3_600_000 - serverMillis() % 3_600_000;
        if (left < 30_000) {
            Thread.sleep(left + 50);
        }
    }

    private static long serverMillis() {
        try (Jedis j = server.jedis()) {
            List<String> t = j.time();
            return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
        }
    }

    private static List<String> burst(KeyedLimiter[] tier, int calls) {
        long[] out = Outcome.newArray();
        List<String> answers = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            answers.add(AllOf.admitted(AllOf.tryAcquire(tier, "k", 1, out, Outcome.newArray(), new long[2]))
                    ? "200" : "429");
        }
        return answers;
    }

    /** 2 a second and 4 an hour: the example of docs/rules.md, in one round trip per call. */
    @ParameterizedTest
    @ValueSource(strings = {"fixed-window", "sliding-window", "sliding-log", "token-bucket", "leaky-bucket"})
    void aRefusedCallTakesNothingFromAnyLimit(String strategy) throws InterruptedException {
        LimitConfig second = LimitConfig.of(2, 1_000);
        LimitConfig hour = LimitConfig.of(4, 3_600_000);
        KeyedLimiter[] tier = tier(stores.get(0), "example-" + strategy, strategy, second, hour);
        clearOfTheHourEnd();
        while (serverMillis() % 1_000 > 300) { // the burst inside one server second
            Thread.sleep(20);
        }
        long trips = stores.get(0).stats().getRoundTrips();
        assertThat(burst(tier, 5)).containsExactly("200", "200", "429", "429", "429");
        assertThat(stores.get(0).stats().getRoundTrips() - trips).as("one round trip per call").isEqualTo(5);
        assertThat(tier[1].remaining("k", Outcome.newArray())).as("the hour").isEqualTo(2);

        Thread.sleep(2_100); // past the second, and the sliding window's weight of it
        long[] out = Outcome.newArray();
        assertThat(burst(tier, 2)).containsExactly("200", "200");
        int answer = AllOf.tryAcquire(tier, "k", 1, out, Outcome.newArray(), new long[2]);
        assertThat(answer).as("refused by the hour").isEqualTo(~1);
        assertThat(out[Outcome.LIMIT]).isEqualTo(4);
        // The hour's answer, not the second's: a fixed window waits for the server's hour to end, which
        // clearOfTheHourEnd leaves at least 30 s away (less the 2.1 s slept above).
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isGreaterThan(20_000);
    }

    /** Three stores, threads each, random costs: each limit ends at exactly its budget minus what was admitted. */
    @ParameterizedTest
    @ValueSource(strings = {"fixed-window", "sliding-window", "sliding-log", "token-bucket", "leaky-bucket"})
    void noPermitIsLostOrCreatedAcrossStores(String strategy) throws InterruptedException {
        LimitConfig tight = LimitConfig.of(60, 3_600_000);
        LimitConfig wide = LimitConfig.of(200, 7_200_000);
        clearOfTheHourEnd();
        AtomicLong taken = new AtomicLong();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (RedisStore store : stores) {
            KeyedLimiter[] tier = tier(store, "hammer-" + strategy, strategy, tight, wide);
            for (int t = 0; t < 3; t++) {
                int seed = t;
                Thread thread = new Thread(() -> {
                    long[] out = Outcome.newArray();
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        return;
                    }
                    for (int i = 0; i < 40; i++) {
                        long cost = 1 + (i + seed) % 3;
                        if (AllOf.admitted(AllOf.tryAcquire(tier, "k", cost, out, Outcome.newArray(), new long[2]))) {
                            taken.addAndGet(cost);
                        }
                    }
                });
                thread.start();
                threads.add(thread);
            }
        }
        go.countDown();
        for (Thread thread : threads) {
            thread.join();
        }
        KeyedLimiter[] check = tier(stores.get(1), "hammer-" + strategy, strategy, tight, wide);
        long[] out = Outcome.newArray();
        assertThat(taken.get()).isBetween(58L, 60L);
        assertThat(check[0].remaining("k", out)).isEqualTo(60 - taken.get());
        assertThat(check[1].remaining("k", out)).isEqualTo(200 - taken.get());
    }

    @Test
    void aCostAboveWhatIsLeftIsRefusedAndTakesNothing() {
        KeyedLimiter limiter = stores.get(0).limiter("export", "token-bucket", LimitConfig.of(100, 3_600_000), 1000);
        KeyedLimiter other = stores.get(2).limiter("export", "token-bucket", LimitConfig.of(100, 3_600_000), 1000);
        long[] out = Outcome.newArray();
        assertThat(limiter.tryAcquire("k", 51, out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(49);
        assertThat(other.tryAcquire("k", 50, out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isPositive();
        assertThat(other.remaining("k", out)).isEqualTo(49);
        assertThat(other.tryAcquire("k", 49, out)).isTrue();
        assertThat(limiter.tryAcquire("k", out)).isFalse();
    }

    @Test
    void theLimitsOfOneKeyShareOneHashTagSlot() {
        KeyedLimiter[] tier = tier(stores.get(0), "tagged", "fixed-window", LimitConfig.of(5, 1_000),
                LimitConfig.of(10, 60_000));
        AllOf.tryAcquire(tier, "client-7", 1, Outcome.newArray(), Outcome.newArray(), new long[2]);
        try (Jedis j = server.jedis()) {
            assertThat(j.keys("*tagged*")).containsExactlyInAnyOrder("limiter:{tagged:client-7}/@1000ms",
                    "limiter:{tagged:client-7}/@60000ms");
        }
        assertThat(tier[0].activeKeys()).isEqualTo(1);
    }
}
