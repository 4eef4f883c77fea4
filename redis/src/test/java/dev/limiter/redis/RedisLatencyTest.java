package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;

/**
 * Redis slow rather than gone: the server stalled from another connection ({@code DEBUG SLEEP}, a stand-in for a
 * slow command, a fork or a busy host) or its clients paused ({@code CLIENT PAUSE}, what a manual failover
 * does). A stall shorter than the store's timeout only delays checks, which Redis still decides exactly; a
 * longer one costs the checks in flight at most the timeout, then the circuit answers per on-failure until
 * the server answers again.
 */
class RedisLatencyTest {

    private static final long LONG_WINDOW = LimitConfig.MAX_WINDOW_MILLIS;
    private static final long MARGIN_MILLIS = Long.getLong("limiter.redis.margin", 150);

    /** Runs {@code command} on a connection of its own, on another thread: the stall begins when it arrives. */
    private static Thread stall(RedisServer server, String... command) {
        Thread t = new Thread(() -> {
            try (Jedis j = new Jedis("127.0.0.1", server.port(), 10_000)) {
                byte[] name = command[0].getBytes(java.nio.charset.StandardCharsets.US_ASCII);
                j.sendCommand(() -> name, java.util.Arrays.copyOfRange(command, 1, command.length));
            }
        }, "stall");
        t.start();
        return t;
    }

    @Test
    void aStallShorterThanTheTimeoutOnlyDelaysExactDecisions() throws Exception {
        try (RedisServer server = RedisServer.start("--enable-debug-command", "yes")) {
            try (RedisStore store = RedisStore.connect(RedisSettings.of(server.uri())
                    .withTimeout(Duration.ofSeconds(2)))) {
                KeyedLimiter limiter = store.limiter("short", "fixed-window", LimitConfig.of(10, LONG_WINDOW), 10);
                long[] out = Outcome.newArray();
                assertThat(limiter.tryAcquire("k", out)).isTrue();
                Thread stall = stall(server, "DEBUG", "SLEEP", "0.5");
                // check until the stall is over: the checks that meet it wait for the server, none gives up
                long slowest = 0;
                int checks = 0;
                int admitted = 1;
                while (stall.isAlive()) {
                    long start = System.nanoTime();
                    admitted += limiter.tryAcquire("k", out) ? 1 : 0;
                    slowest = Math.max(slowest, (System.nanoTime() - start) / 1_000_000);
                    checks++;
                }
                for (int i = 0; i < 20; i++) { // past the limit: an exact count must stop at 10
                    admitted += limiter.tryAcquire("k", out) ? 1 : 0;
                    checks++;
                }
                System.out.println("DEBUG SLEEP 0.5 under a 2 s timeout: " + checks + " checks, slowest " + slowest
                        + " ms, " + store.stats());
                assertThat(slowest).as("a check met the stall").isGreaterThanOrEqualTo(250);
                assertThat(admitted).as("Redis decided every check").isEqualTo(10);
                assertThat(store.stats().getFallbacks()).isZero();
                assertThat(store.stats().getTimeouts()).isZero();
                assertThat(store.state()).isEqualTo(StoreState.UP);
            }
        }
    }

    @Test
    void aStallLongerThanTheTimeoutCostsAtMostTheTimeout() throws Exception {
        Duration timeout = Duration.ofMillis(300);
        try (RedisServer server = RedisServer.start("--enable-debug-command", "yes")) {
            RedisSettings settings = RedisSettings.of(server.uri()).withTimeout(timeout)
                    .withProbeInterval(Duration.ofMillis(100));
            try (RedisStore store = RedisStore.connect(settings)) {
                KeyedLimiter limiter = store.limiter("long", "token-bucket", LimitConfig.of(1_000_000, 1000), 10);
                try (CheckLoad load = new CheckLoad(List.of(limiter), 4)) {
                    for (String[] command : List.of(new String[] {"DEBUG", "SLEEP", "2"},
                            new String[] {"CLIENT", "PAUSE", "2000"})) {
                        await().atMost(Duration.ofSeconds(10)).until(() -> store.state() == StoreState.UP);
                        long trips = store.stats().getRoundTrips();
                        await().until(() -> store.stats().getRoundTrips() > trips + 100);
                        load.resetSlowest();
                        long timeouts = store.stats().getTimeouts();
                        long fallbacks = store.stats().getFallbacks();
                        Thread stall = stall(server, command);
                        // still within the 2 s stall: the checks in flight timed out, the circuit answers the rest
                        await().atMost(Duration.ofSeconds(5)).until(() -> store.state() == StoreState.FALLBACK
                                && store.stats().getTimeouts() > timeouts);
                        long checks = load.checks.get();
                        await().atMost(Duration.ofSeconds(5)).until(() -> load.checks.get() > checks + 1000);
                        // the outage only, as RedisFailureTest bounds it: the first checks after it run a cold path
                        long slowest = load.slowestMillis();
                        String what = String.join(" ", command) + ": slowest check " + slowest + " ms, fallbacks "
                                + (store.stats().getFallbacks() - fallbacks) + ", " + store.stats();
                        System.out.println(what);
                        assertThat(slowest).as(what)
                                .isLessThanOrEqualTo(load.allowedMillis(timeout.toMillis() + MARGIN_MILLIS));
                        assertThat(store.stats().getFallbacks()).as(what).isGreaterThan(fallbacks + 1000);
                        stall.join();
                        await().atMost(Duration.ofSeconds(10)).until(() -> store.state() == StoreState.UP);
                    }
                    assertThat(load.thrown.get()).isZero();
                }
            }
        }
    }
}
