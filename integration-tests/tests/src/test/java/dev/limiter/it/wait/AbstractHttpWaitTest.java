package dev.limiter.it.wait;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code on-limit: wait} on {@code http:} rules against a real container with the agent, over real HTTP and JMX:
 * concurrent requests over the limit wait for their permits (parked in the container's thread, a virtual one
 * where the app runs on them) instead of getting 429, never before their permit and never beyond
 * {@code max-wait}; beyond {@code max-waiters} a request gets its 429 at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractHttpWaitTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: waits
                match: { http: { path: /api/items/waits } }
                strategy: token-bucket
                limit: 5
                window: 5s          # a burst of 5, then one permit a second
                on-limit: wait
                max-wait: 5s
                max-waiters: 10
              - id: few-waiters
                match: { http: { path: /api/items/few } }
                strategy: token-bucket
                limit: 1
                window: 3s
                capacity: 1         # one now, then one every 3 s
                on-limit: wait
                max-wait: 10s
                max-waiters: 2
              - id: warm-up
                match: { http: { path: /api/items/warm } }
                limit: 1
                window: 1h
            """;

    /** Slack for a loaded machine on top of a wait's bound: a response is never later than max-wait plus this. */
    private static final long SLACK_MILLIS = 4_000;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private AttachedJmx jmx;
    private MBeanServerConnection mbeans;

    /** The container under test. */
    abstract TestApp app();

    @BeforeAll
    void start() {
        rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        String marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(app(), getClass().getSimpleName() + "-server", List.of(
                AttachedJmx.markerOption(marker), "-Dlimiter.jmx.delay=0", Agent.option(rules.path()))));
        http = server.http();
        jmx = AttachedJmx.attach(marker);
        mbeans = jmx.connection();
        await("the rule MBeans are registered").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> mbeans.isRegistered(rule("few-waiters")));
        // a 429 once, so the tests time requests on warm code (the first rejection loads the writer's classes)
        assertThat(http.status("/api/items/warm")).isEqualTo(200);
        assertThat(http.status("/api/items/warm")).isEqualTo(429);
    }

    @AfterAll
    void stop() {
        if (jmx != null) {
            jmx.close();
        }
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    private static ObjectName rule(String id) {
        try {
            return new ObjectName("dev.limiter:type=Rule,name=" + id);
        } catch (Exception e) {
            throw new IllegalArgumentException(id, e);
        }
    }

    private Object attr(String ruleId, String attribute) throws Exception {
        return mbeans.getAttribute(rule(ruleId), attribute);
    }

    /** A response and when it came, in ms after the first request was sent. */
    private record Timed(HttpResponse<String> response, long millis) {
    }

    private List<Timed> concurrently(int requests, String path) {
        long start = System.nanoTime();
        List<CompletableFuture<Timed>> sent = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            sent.add(http.getAsync(path).thenApply(response -> new Timed(response,
                    (System.nanoTime() - start) / 1_000_000)));
        }
        List<Timed> answers = new ArrayList<>();
        for (CompletableFuture<Timed> answer : sent) {
            answers.add(answer.join());
        }
        answers.sort((a, b) -> Long.compare(a.millis, b.millis));
        return answers;
    }

    @Test
    void requestsOverTheLimitWaitForTheirPermitsInsteadOfGetting429() throws Exception {
        List<Timed> answers = concurrently(10, "/api/items/waits");

        assertThat(answers).extracting(answer -> answer.response().statusCode()).containsOnly(200);
        assertThat(attr("waits", "Allowed")).isEqualTo(10L);
        assertThat(attr("waits", "Rejected")).isEqualTo(0L);
        assertThat(attr("waits", "Waited")).as("5 at once (the burst), 5 after waiting").isEqualTo(5L);
        // the k-th waiter's permit accrues k seconds after the burst was taken: none is early, none waits beyond
        // max-wait (5 s)
        for (int k = 1; k <= 5; k++) {
            assertThat(answers.get(4 + k).millis()).as("waiter %d", k).isGreaterThanOrEqualTo(k * 1000L - 50)
                    .isLessThan(5_000 + SLACK_MILLIS);
        }
        long waitMillis = (Long) attr("waits", "WaitMillisTotal");
        assertThat(waitMillis).as("1 + 2 + 3 + 4 + 5 s, less however late the requests arrived")
                .isBetween(10_000L, 15_000L);
        assertThat(attr("waits", "Waiting")).isEqualTo(0);
    }

    @Test
    void beyondMaxWaitersARequestIsRejectedAtOnce() throws Exception {
        List<Timed> answers = concurrently(6, "/api/items/few");

        List<Integer> statuses = answers.stream().map(answer -> answer.response().statusCode()).toList();
        assertThat(statuses).as("1 at once, 2 waiting (max-waiters), 3 refused").containsExactlyInAnyOrder(200, 200,
                200, 429, 429, 429);
        assertThat(statuses.subList(4, 6)).as("the two waiters come last: %s", statuses).containsOnly(200);
        assertThat(attr("few-waiters", "Waited")).isEqualTo(2L);
        assertThat(attr("few-waiters", "WaitRefused")).isEqualTo(3L);
        assertThat(attr("few-waiters", "Rejected")).isEqualTo(3L);
        assertThat(attr("few-waiters", "Allowed")).isEqualTo(3L);
        long firstWaiter = answers.get(4).millis();
        assertThat(firstWaiter).as("the first waiter: 3 s after the first permit").isGreaterThanOrEqualTo(3_000 - 50);
        for (Timed answer : answers) {
            if (answer.response().statusCode() == 429) {
                assertThat(answer.millis()).as("refused at once, not after waiting").isLessThan(firstWaiter);
                assertThat(Long.parseLong(answer.response().headers().firstValue("Retry-After").orElseThrow()))
                        .isBetween(1L, 10L);
            }
        }
        assertThat(answers.get(5).millis()).as("the second waiter: 6 s after the first permit")
                .isGreaterThanOrEqualTo(6_000 - 50).isLessThan(10_000 + SLACK_MILLIS);
        assertThat(attr("few-waiters", "Waiting")).isEqualTo(0);
    }
}
