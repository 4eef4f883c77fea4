package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * The six strategies on one real Redis, shared by three stores (three connection pools, as three JVMs would
 * have), each with several threads: exact totals where the strategy is exact, the mathematical bound otherwise.
 */
class RedisStrategiesTest {

    /** Long enough that no clock-aligned window boundary falls inside a test (checked anyway). */
    private static final long LONG_WINDOW = 3_600_000;

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

    private static List<KeyedLimiter> limiters(String rule, String strategy, LimitConfig config) {
        List<KeyedLimiter> list = new ArrayList<>();
        for (RedisStore store : stores) {
            list.add(store.limiter(rule, strategy, config, 1000));
        }
        return list;
    }

    private static long serverWindow(long windowMillis) {
        try (Jedis j = server.jedis()) {
            List<String> t = j.time();
            long now = Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
            return now / windowMillis;
        }
    }

    @Test
    void fixedWindowAdmitsExactlyTheLimitAcrossStores() throws InterruptedException {
        List<KeyedLimiter> limiters = limiters("fw", "fixed-window", LimitConfig.of(100, LONG_WINDOW));
        long window = serverWindow(LONG_WINDOW);
        int admitted = Contention.hammer(limiters, 4, 40, "client-1"); // 480 attempts
        org.junit.jupiter.api.Assumptions.assumeTrue(window == serverWindow(LONG_WINDOW), "window boundary crossed");
        assertThat(admitted).isEqualTo(100);

        long[] out = Outcome.newArray();
        assertThat(limiters.get(0).tryAcquire("client-1", out)).isFalse();
        assertThat(out[Outcome.REMAINING]).isZero();
        assertThat(out[Outcome.LIMIT]).isEqualTo(100);
        assertThat(out[Outcome.RESET_EPOCH_SECONDS]).isEqualTo((window + 1) * LONG_WINDOW / 1000);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isPositive().isLessThanOrEqualTo(LONG_WINDOW);
        // another key has its own budget
        assertThat(limiters.get(1).tryAcquire("client-2", out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(99);
    }

    @Test
    void fixedWindowStartsAfreshInTheNextWindow() {
        KeyedLimiter limiter = stores.get(0).limiter("fw-short", "fixed-window", LimitConfig.of(3, 200), 10);
        long[] out = Outcome.newArray();
        await().atMost(Duration.ofSeconds(5)).until(() -> {
            // fill a window, then expect a fresh budget once the server's window has moved on
            long window = serverWindow(200);
            int admitted = 0;
            for (int i = 0; i < 5; i++) {
                admitted += limiter.tryAcquire("k", out) ? 1 : 0;
            }
            return window == serverWindow(200) && admitted <= 3;
        });
        await().atMost(Duration.ofSeconds(2)).until(() -> limiter.tryAcquire("k", out));
    }

    @Test
    void slidingWindowAdmitsTheLimitInTheFirstWindow() throws InterruptedException {
        List<KeyedLimiter> limiters = limiters("sw", "sliding-window", LimitConfig.of(60, LONG_WINDOW));
        long window = serverWindow(LONG_WINDOW);
        int admitted = Contention.hammer(limiters, 4, 20, "client-1");
        org.junit.jupiter.api.Assumptions.assumeTrue(window == serverWindow(LONG_WINDOW), "window boundary crossed");
        assertThat(admitted).isEqualTo(60);
    }

    @Test
    void slidingWindowStaysWithinItsBoundOverSeveralWindows() throws InterruptedException {
        // 20 per 300 ms for ~1.2 s: any aligned window admits at most 20, so at most 20 * (windows touched)
        List<KeyedLimiter> limiters = limiters("sw-rate", "sliding-window", LimitConfig.of(20, 300));
        long first = serverWindow(300);
        long deadline = System.nanoTime() + 1_200_000_000L;
        AtomicInteger admitted = new AtomicInteger();
        runUntil(limiters, 2, deadline, "k", admitted);
        long windows = serverWindow(300) - first + 1;
        assertThat(admitted.get()).isLessThanOrEqualTo((int) (20 * windows)).isGreaterThanOrEqualTo(20);
    }

    @Test
    void slidingLogAdmitsExactlyTheLimitAcrossStores() throws InterruptedException {
        List<KeyedLimiter> limiters = limiters("sl", "sliding-log", LimitConfig.of(70, LONG_WINDOW));
        assertThat(Contention.hammer(limiters, 4, 20, "client-1")).isEqualTo(70); // 240 attempts
        long[] out = Outcome.newArray();
        assertThat(limiters.get(2).tryAcquire("client-1", out)).isFalse();
        assertThat(out[Outcome.REMAINING]).isZero();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isBetween(LONG_WINDOW - 60_000, LONG_WINDOW);
        assertThat(limiters.get(0).tryAcquire("client-2", out)).isTrue();
        assertThat(out[Outcome.REMAINING]).isEqualTo(69);
        try (Jedis j = server.jedis()) {
            assertThat(j.llen("limiter:{sl:client-1}")).as("one entry per admitted permit").isEqualTo(70);
        }
    }

    /** 20 per 300 ms from three stores for ~1.2 s: within the bound, and the list is the sorted log. */
    @Test
    void slidingLogStaysWithinItsBoundOverSeveralWindows() throws InterruptedException {
        List<KeyedLimiter> limiters = limiters("sl-rate", "sliding-log", LimitConfig.of(20, 300));
        AtomicInteger admitted = new AtomicInteger();
        long start = System.nanoTime();
        runUntil(limiters, 2, start + 1_200_000_000L, "k", admitted);
        double windows = (System.nanoTime() - start) / 300e6;
        assertThat(admitted.get()).isGreaterThanOrEqualTo(20).isLessThanOrEqualTo((int) (20 * (windows + 1)));
        try (Jedis j = server.jedis()) {
            List<Long> log = j.lrange("limiter:{sl-rate:k}", 0, -1).stream().map(Long::parseLong).toList();
            assertThat(log).isSorted().hasSizeLessThanOrEqualTo(20);
            if (log.size() == 20) { // a full log: its oldest and newest are less than a window apart
                assertThat(log.get(19) - log.get(0)).isLessThan(300);
            }
        }
    }

    @Test
    void slidingLogLetsAnEntryGoExactlyAWindowAfterIt() throws InterruptedException {
        KeyedLimiter limiter = stores.get(0).limiter("sl-exact", "sliding-log", LimitConfig.of(3, 400), 10);
        long[] out = Outcome.newArray();
        long before = serverMillis();
        for (int i = 0; i < 3; i++) {
            assertThat(limiter.tryAcquire("k", out)).isTrue();
        }
        assertThat(limiter.tryAcquire("k", out)).isFalse();
        long after = serverMillis();
        // the first entry, taken between before and after, leaves the window exactly 400 ms after it
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isBetween(400 - (after - before), 400L);
        try (Jedis j = server.jedis()) {
            List<Long> log = j.lrange("limiter:{sl-exact:k}", 0, -1).stream().map(Long::parseLong).toList();
            assertThat(log).hasSize(3).isSorted().allSatisfy(at -> assertThat(at).isBetween(before, after));
            assertThat(j.pttl("limiter:{sl-exact:k}")).isPositive().isLessThanOrEqualTo(1400);
        }
        Thread.sleep(out[Outcome.RETRY_AFTER_MILLIS]); // then the first entry has left: a permit is back
        assertThat(limiter.remaining("k", out)).isBetween(1L, 3L);
    }

    private static long serverMillis() {
        try (Jedis j = server.jedis()) {
            List<String> t = j.time();
            return Long.parseLong(t.get(0)) * 1000 + Long.parseLong(t.get(1)) / 1000;
        }
    }

    @Test
    void tokenBucketAdmitsTheCapacityThenTheRate() throws InterruptedException {
        // capacity 30, refill 50 per second, for ~1 s of continuous demand
        List<KeyedLimiter> limiters = limiters("tb", "token-bucket", LimitConfig.of(50, 1000).withCapacity(30));
        long start = System.nanoTime();
        AtomicInteger admitted = new AtomicInteger();
        runUntil(limiters, 2, start + 1_000_000_000L, "k", admitted);
        double seconds = (System.nanoTime() - start) / 1e9;
        // upper bound is exact math: the full bucket plus what refilled while the test ran (+1 for rounding)
        assertThat(admitted.get()).isLessThanOrEqualTo((int) Math.floor(30 + 50 * seconds) + 1);
        assertThat(admitted.get()).isGreaterThanOrEqualTo(30);
    }

    @Test
    void tokenBucketIsExactWithoutRefill() throws InterruptedException {
        List<KeyedLimiter> limiters = limiters("tb-exact", "token-bucket", LimitConfig.of(40, LONG_WINDOW));
        assertThat(Contention.hammer(limiters, 4, 20, "k")).isEqualTo(40);
        long[] out = Outcome.newArray();
        assertThat(limiters.get(2).tryAcquire("k", out)).isFalse();
        // one permit refills every 90 s: retry-after says so
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isBetween(80_000L, 90_000L);
    }

    @Test
    void leakyBucketPacesAtTheRate() throws InterruptedException {
        // 40 per second, burst tolerance 5, for ~1 s
        List<KeyedLimiter> limiters = limiters("lb", "leaky-bucket", LimitConfig.of(40, 1000).withCapacity(5));
        long start = System.nanoTime();
        AtomicInteger admitted = new AtomicInteger();
        runUntil(limiters, 2, start + 1_000_000_000L, "k", admitted);
        double seconds = (System.nanoTime() - start) / 1e9;
        assertThat(admitted.get()).isLessThanOrEqualTo((int) Math.floor(5 + 40 * seconds) + 1);
        assertThat(admitted.get()).isGreaterThanOrEqualTo(20);
    }

    @Test
    void leakyBucketIsExactWithoutLeak() throws InterruptedException {
        List<KeyedLimiter> limiters = limiters("lb-exact", "leaky-bucket",
                LimitConfig.of(10, LONG_WINDOW).withCapacity(7));
        assertThat(Contention.hammer(limiters, 4, 10, "k")).isEqualTo(7);
    }

    @Test
    void concurrencyNeverExceedsTheLimitAcrossStores() throws InterruptedException {
        List<KeyedLimiter> limiters = limiters("bulkhead", "concurrency", LimitConfig.of(5, 1000));
        AtomicInteger inFlight = new AtomicInteger();
        AtomicInteger maxInFlight = new AtomicInteger();
        AtomicInteger admitted = new AtomicInteger();
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (KeyedLimiter limiter : limiters) {
            for (int t = 0; t < 3; t++) {
                Thread thread = new Thread(() -> {
                    long[] out = Outcome.newArray();
                    try {
                        go.await();
                        for (int i = 0; i < 30; i++) {
                            if (limiter.tryAcquire("k", out)) {
                                int now = inFlight.incrementAndGet();
                                maxInFlight.accumulateAndGet(now, Math::max);
                                admitted.incrementAndGet();
                                Thread.sleep(2); // the guarded work
                                inFlight.decrementAndGet();
                                limiter.release("k");
                            }
                        }
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
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
        assertThat(maxInFlight.get()).isLessThanOrEqualTo(5);
        assertThat(admitted.get()).isGreaterThan(5);
        long[] out = Outcome.newArray();
        assertThat(limiters.get(0).remaining("k", out)).isEqualTo(5); // every permit came back
    }

    @Test
    void permitsOfACrashedJvmExpireWithTheirLease() {
        RedisStore crashing = RedisStore.connect(RedisSettings.of(server.uri()).withTimeout(Duration.ofSeconds(2))
                .withConcurrencyLease(Duration.ofMillis(600)));
        RedisStore survivor = RedisStore.connect(RedisSettings.of(server.uri()).withTimeout(Duration.ofSeconds(2))
                .withConcurrencyLease(Duration.ofMillis(600)));
        try {
            LimitConfig config = LimitConfig.of(3, 1000);
            KeyedLimiter dying = crashing.limiter("lease", "concurrency", config, 10);
            KeyedLimiter alive = survivor.limiter("lease", "concurrency", config, 10);
            long[] out = Outcome.newArray();
            assertThat(dying.tryAcquire("k", out)).isTrue();
            assertThat(dying.tryAcquire("k", out)).isTrue();
            assertThat(alive.tryAcquire("k", out)).isTrue();
            assertThat(alive.tryAcquire("k", out)).isFalse();
            crashing.close(); // stops renewing, never releases: a crash as far as Redis can tell
            // the survivor's own permit is renewed and stays taken; the crashed JVM's two come back
            await().atMost(Duration.ofSeconds(5)).until(() -> alive.remaining("k", out) == 2);
            assertThat(alive.tryAcquire("k", out)).isTrue();
            assertThat(alive.tryAcquire("k", out)).isTrue();
            assertThat(alive.tryAcquire("k", out)).isFalse();
        } finally {
            crashing.close();
            survivor.close();
        }
    }

    @Test
    void longCallsKeepTheirPermitsPastTheLease() throws InterruptedException {
        try (RedisStore store = RedisStore.connect(RedisSettings.of(server.uri()).withTimeout(Duration.ofSeconds(2))
                .withConcurrencyLease(Duration.ofMillis(300)))) {
            KeyedLimiter limiter = store.limiter("renew", "concurrency", LimitConfig.of(1, 1000), 10);
            long[] out = Outcome.newArray();
            assertThat(limiter.tryAcquire("k", out)).isTrue();
            Thread.sleep(900); // three leases: renewed by the store's thread
            assertThat(limiter.tryAcquire("k", out)).isFalse();
            limiter.release("k");
            assertThat(limiter.tryAcquire("k", out)).isTrue();
        }
    }

    @Test
    void remainingDoesNotTakeAPermit() {
        for (String strategy : List.of("fixed-window", "sliding-window", "sliding-log", "token-bucket",
                "leaky-bucket", "concurrency")) {
            KeyedLimiter limiter = stores.get(0).limiter("peek-" + strategy, strategy,
                    LimitConfig.of(3, LONG_WINDOW), 10);
            long[] out = Outcome.newArray();
            assertThat(limiter.remaining("k", out)).as(strategy).isEqualTo(3);
            assertThat(limiter.remaining("k", out)).as(strategy).isEqualTo(3);
            assertThat(limiter.tryAcquire("k", out)).as(strategy).isTrue();
            assertThat(out[Outcome.REMAINING]).as(strategy).isEqualTo(2);
            assertThat(limiter.remaining("k", out)).as(strategy).isEqualTo(2);
            assertThat(out[Outcome.LIMIT]).as(strategy).isEqualTo(3);
        }
    }

    @Test
    void keysUseOneHashTagAndExpireByThemselves() {
        KeyedLimiter limiter = stores.get(0).limiter("layout", "fixed-window", LimitConfig.of(5, 2000), 10);
        long[] out = Outcome.newArray();
        limiter.tryAcquire("1.2.3.4", out);
        try (Jedis j = server.jedis()) {
            assertThat(j.exists("limiter:{layout:1.2.3.4}")).isTrue();
            assertThat(j.pttl("limiter:{layout:1.2.3.4}")).isPositive().isLessThanOrEqualTo(3000);
        }
        KeyedLimiter bucket = stores.get(0).limiter("layout-tb", "token-bucket", LimitConfig.of(10, 1000), 10);
        bucket.tryAcquire("a", out);
        try (Jedis j = server.jedis()) {
            // one permit of debt drains in 100 ms: the key (a full bucket) goes away soon after
            assertThat(j.pttl("limiter:{layout-tb:a}")).isPositive().isLessThanOrEqualTo(1100);
        }
        assertThat(limiter.activeKeys()).isEqualTo(1);
    }

    @Test
    void resetAndResetKeyForgetTheStateForEveryStore() {
        List<KeyedLimiter> limiters = limiters("reset", "fixed-window", LimitConfig.of(1, LONG_WINDOW));
        long[] out = Outcome.newArray();
        assertThat(limiters.get(0).tryAcquire("a", out)).isTrue();
        assertThat(limiters.get(0).tryAcquire("b", out)).isTrue();
        assertThat(limiters.get(1).tryAcquire("a", out)).isFalse();
        limiters.get(1).resetKey("a");
        assertThat(limiters.get(2).tryAcquire("a", out)).isTrue();
        assertThat(limiters.get(2).tryAcquire("b", out)).isFalse();
        assertThat(limiters.get(0).activeKeys()).isEqualTo(2);
        limiters.get(0).reset();
        assertThat(limiters.get(0).activeKeys()).isZero();
        assertThat(limiters.get(1).tryAcquire("a", out)).isTrue();
        assertThat(limiters.get(1).tryAcquire("b", out)).isTrue();
    }

    @Test
    void reconfigureAppliesFromTheNextCheck() {
        KeyedLimiter limiter = stores.get(0).limiter("reconf", "token-bucket", LimitConfig.of(4, LONG_WINDOW), 10);
        long[] out = Outcome.newArray();
        for (int i = 0; i < 4; i++) {
            assertThat(limiter.tryAcquire("k", out)).isTrue();
        }
        assertThat(limiter.tryAcquire("k", out)).isFalse();
        // twice the capacity: the debt of 4 permits carries over, 4 more fit
        limiter.reconfigure(LimitConfig.of(8, 2 * LONG_WINDOW));
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            admitted += limiter.tryAcquire("k", out) ? 1 : 0;
        }
        assertThat(admitted).isEqualTo(4);
        assertThat(limiter.config().limit()).isEqualTo(8);
    }

    @Test
    void rejectsWhatTheScriptsCannotRun() {
        RedisStore store = stores.get(0);
        assertThatThrownBy(() -> store.limiter("x", "no-such", LimitConfig.of(1, 1000), 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("unknown strategy");
        assertThatThrownBy(() -> store.limiter("x", "sliding-window", LimitConfig.of(3_000_000, 1000), 10))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> store.limiter("x", "sliding-log", LimitConfig.of(10_001, 1000), 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at most 10000");
        assertThat(RedisStore.runs(dev.limiter.core.strategy.SlidingLogStrategy.INSTANCE)).isTrue();
        // 1 per 49 days with a capacity of 2^22: capacity * window exceeds what a Lua double holds exactly
        assertThatThrownBy(() -> store.limiter("x", "token-bucket",
                LimitConfig.of(1, LimitConfig.MAX_WINDOW_MILLIS).withCapacity(1 << 22), 10))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("2^53");
    }

    @Test
    void oneCheckIsOneRoundTrip() {
        KeyedLimiter limiter = stores.get(0).limiter("rtt", "sliding-window", LimitConfig.of(1000, LONG_WINDOW), 10);
        long[] out = Outcome.newArray();
        limiter.tryAcquire("warm", out); // loads the script if needed
        try (Jedis j = server.jedis()) {
            j.configResetStat();
        }
        for (int i = 0; i < 200; i++) {
            limiter.tryAcquire("k" + (i % 7), out);
        }
        // 200 EVALSHA, each running the script once (one TIME each), and no other command from a client
        assertThat(server.calls("evalsha")).isEqualTo(200);
        assertThat(server.calls("time")).isEqualTo(200);
        assertThat(server.clientCalls()).isEqualTo(200);
    }

    private static void runUntil(List<KeyedLimiter> limiters, int threads, long deadlineNanos, String key,
            AtomicInteger admitted) throws InterruptedException {
        List<Thread> all = new ArrayList<>();
        for (KeyedLimiter limiter : limiters) {
            for (int t = 0; t < threads; t++) {
                Thread thread = new Thread(() -> {
                    long[] out = Outcome.newArray();
                    while (System.nanoTime() < deadlineNanos) {
                        if (limiter.tryAcquire(key, out)) {
                            admitted.incrementAndGet();
                        }
                    }
                });
                thread.start();
                all.add(thread);
            }
        }
        for (Thread thread : all) {
            thread.join();
        }
    }
}
