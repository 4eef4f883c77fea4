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
 * An {@code on-limit: wait} rule on a Spring WebFlux path (Reactor Netty): the exchange is decided on an event
 * loop, which must never be parked, so over the limit the request gets its 429 at once instead of waiting, counted
 * in {@code WaitRefused}; within the limit it passes as usual.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SpringBoot3WebfluxWaitTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: loop-waits
                match: { http: { path: /api/items/loop } }
                strategy: token-bucket
                limit: 2
                window: 10s         # a burst of 2, then one permit every 5 s: a wait would fit in max-wait
                on-limit: wait
                max-wait: 30s
                max-waiters: 10
            """;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private AttachedJmx jmx;
    private MBeanServerConnection mbeans;

    @BeforeAll
    void start() {
        rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        String marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(TestApp.SPRING_BOOT3_WEBFLUX, getClass().getSimpleName()
                + "-server", List.of(AttachedJmx.markerOption(marker), "-Dlimiter.jmx.delay=0",
                        Agent.option(rules.path()))));
        http = server.http();
        assertThat(http.status("/api/hello")).as("the first exchange opens the MBeans").isEqualTo(200);
        jmx = AttachedJmx.attach(marker);
        mbeans = jmx.connection();
        await("the rule MBean is registered").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> mbeans.isRegistered(new ObjectName("dev.limiter:type=Rule,name=loop-waits")));
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

    private Object attr(String attribute) throws Exception {
        return mbeans.getAttribute(new ObjectName("dev.limiter:type=Rule,name=loop-waits"), attribute);
    }

    @Test
    void anEventLoopNeverWaitsOverTheLimitItAnswers429AtOnce() throws Exception {
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<String>>> sent = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            sent.add(http.getAsync("/api/items/loop"));
        }
        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> answer : sent) {
            statuses.add(answer.join().statusCode());
        }
        long millis = (System.nanoTime() - start) / 1_000_000;

        assertThat(statuses).containsExactlyInAnyOrder(200, 200, 429, 429, 429, 429);
        assertThat(millis).as("nobody waited for the next permit, 5 s away").isLessThan(4_500);
        assertThat(attr("Allowed")).isEqualTo(2L);
        assertThat(attr("Rejected")).isEqualTo(4L);
        assertThat(attr("WaitRefused")).isEqualTo(4L);
        assertThat(attr("Waited")).isEqualTo(0L);
        assertThat(attr("Waiting")).isEqualTo(0);
        assertThat(http.status("/api/hello")).as("the event loops still serve").isEqualTo(200);
    }
}
