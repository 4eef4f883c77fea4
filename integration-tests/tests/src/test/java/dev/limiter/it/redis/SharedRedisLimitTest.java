package dev.limiter.it.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.WindowGuard;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Two Jetty 12 JVMs with the agent share one {@code redis-server} through {@code store: redis} (docs/distributed.md): exactly
 * the limit across both per fixed one-minute window; with Redis killed every request is still answered at once
 * by this JVM's own limiter ({@code on-failure: local}); after a restart shared limiting resumes by itself.
 *
 * <p>The steps build on each other (one Redis, two servers: start-up is the cost), hence the order. Exact counts
 * wait for room in the current minute first ({@link WindowGuard}). The latency bound is the store's timeout plus
 * {@code -Dlimiter.redis.margin} (half the timeout by default: room for an HTTP round trip to a forked JVM on two
 * shared cores, measured 12-22 ms, while a request that paid a second timeout breaks it).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
class SharedRedisLimitTest {

    private static final int LIMIT = 20;
    /**
     * The store's per-check timeout. Not lower: on a starved machine (load 28 once) a 100 ms timeout expired on
     * a healthy Redis, the check fell back to the local limiter as on-failure says, and the shared count was off.
     */
    private static final long TIMEOUT_MILLIS = 300;
    private static final long MARGIN_MILLIS = Long.getLong("limiter.redis.margin", TIMEOUT_MILLIS / 2);
    private static final Duration WINDOW = Duration.ofMinutes(1);
    private static final Duration ROOM = Duration.ofSeconds(25);
    private static final String SHARED = "/api/items/shared";

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private TwoServersOnRedis shared;
    private RedisProcess redis;

    @BeforeAll
    void start() {
        shared = TwoServersOnRedis.start(servers, "SharedRedisLimitTest", TIMEOUT_MILLIS, """
                  - id: shared
                    match: { http: { path: %s } }
                    strategy: fixed-window
                    limit: %d
                    window: 1m
                """.formatted(SHARED, LIMIT));
        redis = shared.redis();
    }

    @AfterAll
    void stop() {
        if (shared != null) {
            shared.close();
        }
    }

    /** Sends {@code count} requests to each server, alternating; returns {admitted by one, by two}. */
    private int[] burst(int count, boolean timed) {
        int[] admitted = new int[2];
        HttpApi[] apis = shared.apis();
        long slowest = 0;
        for (int i = 0; i < count; i++) {
            for (int s = 0; s < 2; s++) {
                long started = System.nanoTime();
                int status = apis[s].status(SHARED);
                slowest = Math.max(slowest, (System.nanoTime() - started) / 1_000_000);
                assertThat(status).as("every request is admitted or limited, never failed").isIn(200, 429);
                if (status == 200) {
                    admitted[s]++;
                }
            }
        }
        System.out.println("SharedRedisLimitTest: " + count + " x 2 requests, admitted " + admitted[0] + " + "
                + admitted[1] + ", slowest " + slowest + " ms");
        if (timed) {
            assertThat(slowest).as("slowest request (ms) with Redis gone").isLessThan(TIMEOUT_MILLIS + MARGIN_MILLIS);
        }
        return admitted;
    }

    @Test
    @Order(1)
    void exactlyTheLimitIsAdmittedAcrossBothServersPerWindow() {
        WindowGuard.awaitRoomInWindow(WINDOW, ROOM);
        int[] admitted = burst(15, false);

        assertThat(admitted[0] + admitted[1]).as("admitted across both JVMs").isEqualTo(LIMIT);
        assertThat(admitted[0]).as("both JVMs took part").isPositive();
        assertThat(admitted[1]).as("both JVMs took part").isPositive();
    }

    @Test
    @Order(2)
    void withRedisKilledEachServerFallsBackToItsOwnLimitWithoutWaiting() throws InterruptedException {
        redis.kill();
        WindowGuard.awaitRoomInWindow(WINDOW, ROOM);
        int[] admitted = burst(LIMIT + 5, true);

        assertThat(admitted[0]).as("server one, limited locally").isEqualTo(LIMIT);
        assertThat(admitted[1]).as("server two, limited locally").isEqualTo(LIMIT);
    }

    @Test
    @Order(3)
    void afterARestartSharedLimitingResumesByItself() throws Exception {
        redis.launch();
        shared.awaitBothOnRedis();
        WindowGuard.awaitRoomInWindow(WINDOW, ROOM);
        int[] admitted = burst(15, false);

        assertThat(admitted[0] + admitted[1]).as("admitted across both JVMs on the restarted Redis")
                .isEqualTo(LIMIT);
    }
}
