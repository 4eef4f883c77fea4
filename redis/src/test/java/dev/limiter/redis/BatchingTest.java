package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Opt-in batching: a JVM reserves {@code batch} permits per round trip. Never more than the limit across JVMs;
 * at most {@code (batch - 1)} per JVM fewer; far fewer round trips on a hot key.
 *
 * <p>The short-window cases measure what batching costs when some JVMs go idle holding reserved permits: 4 stores
 * (as 4 JVMs), 2 of them make one check and go quiet (each keeps {@code batch - 1} permits nobody else can use),
 * 2 others with 2 threads each drain the rest. They print the measured numbers docs/distributed.md quotes.
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

    private static final int LIMIT = 100;
    private static final int BATCH = 10;
    private static final int IDLE_JVMS = 2;
    private static final int BUSY_JVMS = 2;
    private static final int THREADS = 2;

    @Test
    void shortFixedWindowsLoseAtMostTheSlicesOfIdleJvmsAndNeverOverAdmit() throws InterruptedException {
        LimitConfig config = LimitConfig.of(LIMIT, 1000);
        try (RedisServer server = RedisServer.start(); Fleet fleet = new Fleet(server, "fixed-window", config)) {
            long[] out = Outcome.newArray();
            int tightWindows = 0;
            for (int w = 0; w < 3; w++) {
                awaitNextServerSecond(server);
                AtomicInteger admitted = new AtomicInteger();
                long window = -1;
                for (KeyedLimiter idle : fleet.idle) {
                    assertThat(idle.tryAcquire("hot", out)).isTrue();
                    admitted.incrementAndGet();
                    window = window < 0 ? out[Outcome.RESET_EPOCH_SECONDS] : window;
                    assertThat(out[Outcome.RESET_EPOCH_SECONDS]).as("both idle checks in one window").isEqualTo(window);
                }
                long thisWindow = window;
                AtomicInteger exhausted = new AtomicInteger();
                fleet.drain((limiter, o) -> {
                    boolean ok = limiter.tryAcquire("hot", o);
                    if (o[Outcome.RESET_EPOCH_SECONDS] != thisWindow) {
                        return false; // the window ended before Redis ran out: counted as not exhausted
                    }
                    if (ok) {
                        admitted.incrementAndGet();
                        return true;
                    }
                    exhausted.incrementAndGet();
                    return false;
                });
                int stranded = LIMIT - admitted.get();
                System.out.printf("fixed-window 1s, limit %d, batch %d, %d idle + %d busy JVMs: window %d admitted %d,"
                        + " stranded %d%n", LIMIT, BATCH, IDLE_JVMS, BUSY_JVMS, w, admitted.get(), stranded);
                assertThat(exhausted.get()).as("every busy thread drained Redis within the window")
                        .isEqualTo(BUSY_JVMS * THREADS);
                assertThat(admitted.get()).as("never over the limit").isLessThanOrEqualTo(LIMIT);
                // LocalSlice's worst case: batch - 1 per JVM per thread that reserved at the moment Redis ran out
                // (seen once in CI at load: a busy JVM left one slice, 27 stranded instead of 18)
                assertThat(stranded).as("at most batch - 1 per idle JVM and per racing thread of a busy one")
                        .isLessThanOrEqualTo((IDLE_JVMS + BUSY_JVMS * THREADS) * (BATCH - 1));
                // usually the busy JVMs use every permit they reserve before Redis says no: only the idle strand
                tightWindows += stranded <= IDLE_JVMS * (BATCH - 1) ? 1 : 0;
            }
            assertThat(tightWindows).as("windows where only the idle JVMs stranded permits").isPositive();
            fleet.assertDecidedByRedis();
        }
    }

    @Test
    void aRefillingTokenBucketLosesAtMostTheSlicesOfIdleJvmsAndNeverOverAdmits() throws InterruptedException {
        // capacity 100, refill 100 per second: 100 + 100 * elapsed admissible in all
        LimitConfig config = LimitConfig.of(LIMIT, 1000);
        try (RedisServer server = RedisServer.start(); Fleet fleet = new Fleet(server, "token-bucket", config)) {
            long[] out = Outcome.newArray();
            long start = serverMillis(server);
            AtomicInteger admitted = new AtomicInteger();
            for (KeyedLimiter idle : fleet.idle) {
                assertThat(idle.tryAcquire("hot", out)).isTrue();
                admitted.incrementAndGet();
            }
            long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(2500);
            // each busy thread runs past the deadline until a rejection: its JVM's slice is then used up
            fleet.drain((limiter, o) -> {
                if (limiter.tryAcquire("hot", o)) {
                    admitted.incrementAndGet();
                    return true;
                }
                LockSupport.parkNanos(200_000); // a rejected client backs off a little (and spares the CPU)
                return System.nanoTime() - deadline < 0;
            });
            long elapsed = serverMillis(server) - start;
            double admissible = LIMIT + LIMIT * elapsed / 1000.0;
            double lost = admissible - admitted.get();
            System.out.printf("token-bucket capacity %d refill %d/s, batch %d, %d idle + %d busy JVMs: %d ms,"
                    + " admissible %.1f, admitted %d, lost %.1f%n", LIMIT, LIMIT, BATCH, IDLE_JVMS, BUSY_JVMS,
                    elapsed, admissible, admitted.get(), lost);
            assertThat((double) admitted.get()).as("never over capacity + refill").isLessThanOrEqualTo(admissible + 1);
            // the idle JVMs' slices expire unused after one window; 3 permits of slack for the refill between the
            // last rejection and the closing TIME (30 ms at 100/s)
            assertThat(lost).as("at most batch - 1 per idle JVM").isLessThanOrEqualTo(IDLE_JVMS * (BATCH - 1) + 3);
            fleet.assertDecidedByRedis();
        }
    }

    /** One check of a busy thread; false stops that thread. */
    private interface Step {
        boolean run(KeyedLimiter limiter, long[] out);
    }

    /** The 4 stores of the short-window cases, each its own pool and slices like a JVM of its own. */
    private static final class Fleet implements AutoCloseable {
        final List<RedisStore> stores = new ArrayList<>();
        final List<KeyedLimiter> idle = new ArrayList<>();
        final List<KeyedLimiter> busy = new ArrayList<>();

        Fleet(RedisServer server, String strategy, LimitConfig config) {
            for (int i = 0; i < IDLE_JVMS + BUSY_JVMS; i++) {
                RedisStore store = RedisStore.connect(RedisSettings.of(server.uri()).withBatch(BATCH)
                        .withTimeout(SLOW_MACHINE));
                stores.add(store);
                (i < IDLE_JVMS ? idle : busy).add(store.limiter("short", strategy, config, 100));
            }
        }

        /** Runs {@code step} on {@link #THREADS} threads per busy JVM until each thread's step says stop. */
        void drain(Step step) throws InterruptedException {
            List<Thread> threads = new ArrayList<>();
            for (KeyedLimiter limiter : busy) {
                for (int t = 0; t < THREADS; t++) {
                    Thread thread = new Thread(() -> {
                        long[] out = Outcome.newArray();
                        while (step.run(limiter, out)) {
                            // next check
                        }
                    });
                    thread.start();
                    threads.add(thread);
                }
            }
            for (Thread thread : threads) {
                thread.join();
            }
        }

        void assertDecidedByRedis() {
            for (RedisStore store : stores) {
                assertThat(store.stats().getFallbacks()).as("checks not decided by Redis").isZero();
            }
        }

        @Override
        public void close() {
            stores.forEach(RedisStore::close);
        }
    }

    private static long serverMillis(RedisServer server) {
        try (Jedis j = server.jedis()) {
            List<String> time = j.time();
            return Long.parseLong(time.get(0)) * 1000 + Long.parseLong(time.get(1)) / 1000;
        }
    }

    /** Sleeps until 20 ms into the next second of the server's clock (the 1 s windows are aligned to it). */
    private static void awaitNextServerSecond(RedisServer server) throws InterruptedException {
        long now = serverMillis(server);
        Thread.sleep(1000 - now % 1000 + 20);
    }

    @Test
    void batchingIsOffByDefault() {
        assertThat(RedisSettings.of("redis://x").batch()).isEqualTo(1);
    }
}
