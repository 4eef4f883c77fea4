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
 * {@code on-limit: wait} on a {@code jaxrs:} rule (Jersey 4 on Tomcat 11): the woven resource method's thread
 * waits for its permit, at most {@code max-waiters} at once; beyond them Jersey renders the 429 at once.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Jersey4Tomcat11JaxrsWaitTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: items-wait
                match: { jaxrs: { class: dev.limiter.it.jaxrs.ItemsResource, method: get } }
                key: path-param:id
                strategy: token-bucket
                limit: 2
                window: 4s          # a burst of 2, then one permit every 2 s
                on-limit: wait
                max-wait: 5s
                max-waiters: 1
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
        server = servers.track(ForkedServer.start(TestApp.JERSEY4_TOMCAT11, getClass().getSimpleName() + "-server",
                List.of(AttachedJmx.markerOption(marker), "-Dlimiter.jmx.delay=0", Agent.option(rules.path()))));
        http = server.http();
        // warm: the first calls of the resource load its classes (and the MBeans open) before anything is timed
        assertThat(http.status("/rest/items/warm")).isEqualTo(200);
        assertThat(http.status("/rest/items/warm")).isEqualTo(200);
        jmx = AttachedJmx.attach(marker);
        mbeans = jmx.connection();
        await("the rule MBean is registered").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> mbeans.isRegistered(name()));
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

    private static ObjectName name() throws Exception {
        return new ObjectName("dev.limiter:type=Rule,name=items-wait");
    }

    @Test
    void aResourceMethodWaitsForItsPermitAndBeyondMaxWaitersJerseyAnswers429AtOnce() throws Exception {
        long allowedBefore = (Long) mbeans.getAttribute(name(), "Allowed");
        long start = System.nanoTime();
        List<CompletableFuture<long[]>> sent = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            sent.add(http.getAsync("/rest/items/w").thenApply((HttpResponse<String> response) -> new long[] {
                response.statusCode(), (System.nanoTime() - start) / 1_000_000}));
        }
        List<long[]> answers = new ArrayList<>();
        for (CompletableFuture<long[]> answer : sent) {
            answers.add(answer.join());
        }
        answers.sort((a, b) -> Long.compare(a[1], b[1]));

        assertThat(answers).extracting(answer -> answer[0]).containsExactlyInAnyOrder(200L, 200L, 200L, 429L, 429L);
        long[] last = answers.get(4);
        assertThat(last[0]).as("the waiter comes last").isEqualTo(200L);
        assertThat(last[1]).as("its permit: 2 s after the burst, at most max-wait").isBetween(2_000L - 50, 9_000L);
        assertThat((Long) mbeans.getAttribute(name(), "Allowed") - allowedBefore).isEqualTo(3L);
        assertThat(mbeans.getAttribute(name(), "Waited")).isEqualTo(1L);
        // both extra requests are answered at once; which reason each gets depends on how they interleave: a
        // request that finds the one waiter slot taken is a WaitRefused, but one that arrives while the other's
        // reservation (4 s ahead) is still held would need 6 s, beyond max-wait, and is a plain rejection
        assertThat((Long) mbeans.getAttribute(name(), "WaitRefused")).isBetween(1L, 2L);
        assertThat(mbeans.getAttribute(name(), "Rejected")).isEqualTo(2L);
        assertThat(mbeans.getAttribute(name(), "Waiting")).isEqualTo(0);
    }
}
