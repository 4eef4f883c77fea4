package dev.limiter.it.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.WindowGuard;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Several limits, plans, exemptions and cost shared by two Jetty 12 JVMs through one {@code redis-server}: the
 * counts are exact across both JVMs, a refused request takes nothing from any limit (read straight from Redis),
 * and each override keeps its own state in its own key.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SharedRedisPolicyTest {

    private static final Duration HOUR = Duration.ofHours(1);
    private static final Duration ROOM = Duration.ofMinutes(2);

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private TwoServersOnRedis shared;
    private RedisProcess redis;

    @BeforeAll
    void start() {
        shared = TwoServersOnRedis.start(servers, "SharedRedisPolicyTest", 300, """
                  - id: plans
                    match: { http: { path: /api/items/plans } }
                    key: header:X-Api-Key
                    limits:
                      - { limit: 3, window: 1h }
                      - { limit: 5, window: 2h }
                    unless:
                      - headers: { X-Health-Check: 'true' }
                    overrides:
                      - name: gold
                        keys: [k-gold]
                        limit: 6
                        window: 1h
                      - name: internal
                        keys: [k-internal]
                        unlimited: true
                  - id: export
                    match: { http: { path: /api/items/export } }
                    limit: 100
                    window: 1h
                    cost: 40
                """);
        redis = shared.redis();
        WindowGuard.awaitRoomInWindow(HOUR, ROOM);
    }

    @AfterAll
    void stop() {
        if (shared != null) {
            shared.close();
        }
    }

    /** {@code count} requests, alternating between the two JVMs; the statuses in order. */
    private List<Integer> alternate(int count, String path, String... headers) {
        HttpApi[] apis = shared.apis();
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            statuses.add(apis[i % 2].status(path, headers));
        }
        return statuses;
    }

    private String counted(String redisKey) throws Exception {
        return redis.bulk("HGET", redisKey, "n");
    }

    @Test
    void severalLimitsAreOneDecisionAcrossBothJvms() throws Exception {
        assertThat(alternate(8, "/api/items/plans", "X-Api-Key", "k-free"))
                .containsExactly(200, 200, 200, 429, 429, 429, 429, 429);
        assertThat(counted("it:{plans:k-free}/@3600000ms")).as("the hour").isEqualTo("3");
        assertThat(counted("it:{plans:k-free}/@7200000ms")).as("the two hours: refused requests took nothing")
                .isEqualTo("3");
    }

    @Test
    void eachPlanKeepsItsOwnSharedBudget() throws Exception {
        assertThat(alternate(8, "/api/items/plans", "X-Api-Key", "k-gold"))
                .containsExactly(200, 200, 200, 200, 200, 200, 429, 429);
        assertThat(counted("it:{plans:k-gold}/gold")).isEqualTo("6");
        assertThat(alternate(12, "/api/items/plans", "X-Api-Key", "k-internal")).containsOnly(200);
        assertThat(redis.command("EXISTS", "it:{plans:k-internal}/@3600000ms")).as("unlimited: nothing kept")
                .isEqualTo(":0");
        assertThat(alternate(6, "/api/items/plans", "X-Api-Key", "k-probe", "X-Health-Check", "true"))
                .containsOnly(200);
        assertThat(redis.command("EXISTS", "it:{plans:k-probe}/@3600000ms")).as("exempt: counted nowhere")
                .isEqualTo(":0");
    }

    @Test
    void aCostAboveWhatIsLeftIsRefusedInEitherJvm() throws Exception {
        assertThat(alternate(4, "/api/items/export")).containsExactly(200, 200, 429, 429);
        assertThat(counted("it:{export:}")).isEqualTo("80");
    }
}
