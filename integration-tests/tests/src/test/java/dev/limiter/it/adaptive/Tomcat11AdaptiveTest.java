package dev.limiter.it.adaptive;

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
import java.util.concurrent.atomic.AtomicLong;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code strategy: adaptive} on a real Tomcat 11 with the agent, over real HTTP and JMX: an endpoint served by 4
 * workers (20 ms each, a queue before them) first sees one client at a time, which shows its no-load latency, then
 * 24 clients at once. The rule, given nothing but its strategy and a start of 20, finds the pool: its limit falls
 * below where it started while the workers queue, the calls beyond it get 429 with {@code Retry-After}, every
 * permit comes back, and the latency it learned is the unloaded one, not the queued one. Nothing here times a
 * request: the limit's moves are read from JMX.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Tomcat11AdaptiveTest {

    private static final String PATH = "/slow?ms=20&workers=4";
    private static final int CLIENTS = 24;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private AttachedJmx jmx;
    private MBeanServerConnection mbeans;
    private ObjectName rule;

    @BeforeAll
    void start() throws Exception {
        rules = RulesFile.create("rules.yml");
        rules.write("""
                version: 1
                rules:
                  - id: pool
                    match: { http: { path: /slow } }
                    strategy: adaptive
                """);
        String marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(TestApp.TOMCAT11_JAKARTA, "Tomcat11AdaptiveTest-server", List.of(
                AttachedJmx.markerOption(marker), "-Dlimiter.jmx.delay=0", Agent.option(rules.path()))));
        http = server.http();
        jmx = AttachedJmx.attach(marker);
        mbeans = jmx.connection();
        rule = new ObjectName("dev.limiter:type=Rule,name=pool");
        await("the rule's MBean").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> mbeans.isRegistered(rule));
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

    private long attr(String name) throws Exception {
        return ((Number) mbeans.getAttribute(rule, name)).longValue();
    }

    @Test
    void underOverloadTheLimitFindsThePoolAndTheExcessGets429() throws Exception {
        assertThat(attr("AdaptiveLimit")).as("the default start").isEqualTo(20);
        // one client at a time for 3 s: windows of the unloaded latency (at least 10 calls each)
        long end = System.nanoTime() + 3_000_000_000L;
        while (System.nanoTime() < end) {
            assertThat(http.status(PATH)).isEqualTo(200);
        }
        await("a window of the unloaded latency").atMost(Duration.ofSeconds(30))
                .until(() -> attr("AdaptiveNoLoadMicros") > 0);
        long unloaded = attr("AdaptiveNoLoadMicros");
        assertThat(attr("AdaptiveLimit")).as("one call at a time never grows it").isEqualTo(20);

        AtomicLong ok = new AtomicLong();
        AtomicLong rejected = new AtomicLong();
        AtomicLong lowest = new AtomicLong(Long.MAX_VALUE);
        long overloadEnd = System.nanoTime() + 12_000_000_000L;
        List<CompletableFuture<Void>> clients = new ArrayList<>();
        for (int c = 0; c < CLIENTS; c++) {
            clients.add(CompletableFuture.runAsync(() -> {
                while (System.nanoTime() < overloadEnd) {
                    HttpResponse<String> response = http.get(PATH);
                    if (response.statusCode() == 200) {
                        ok.incrementAndGet();
                    } else {
                        assertThat(response.statusCode()).isEqualTo(429);
                        assertThat(response.headers().firstValue("Retry-After")).isPresent();
                        rejected.incrementAndGet();
                        sleepQuietly(20); // a client that backs off a little, as well-behaved ones do
                    }
                }
            }, java.util.concurrent.Executors.newCachedThreadPool()));
        }
        while (System.nanoTime() < overloadEnd) {
            lowest.accumulateAndGet(attr("AdaptiveLimit"), Math::min);
            Thread.sleep(200);
        }
        CompletableFuture.allOf(clients.toArray(CompletableFuture[]::new)).join();
        System.out.printf("adaptive: lowest limit %d, %d ok, %d rejected, no-load %d us, last window %d us%n",
                lowest.get(), ok.get(), rejected.get(), attr("AdaptiveNoLoadMicros"), attr("AdaptiveLatencyMicros"));

        assertThat(lowest.get()).as("the limit fell while 24 clients queued for 4 workers").isLessThan(20);
        assertThat(rejected.get()).as("the calls beyond it got 429").isPositive();
        assertThat(ok.get()).isPositive();
        assertThat(attr("Allowed") + attr("Rejected")).isGreaterThanOrEqualTo(ok.get() + rejected.get());
        assertThat(attr("Rejected")).isEqualTo(rejected.get());
        await("every permit back").atMost(Duration.ofSeconds(10)).until(() -> attr("AdaptiveInFlight") == 0);
        assertThat(attr("AdaptiveNoLoadMicros")).as("the reference stays the unloaded latency")
                .isLessThanOrEqualTo(unloaded * 2);
        assertThat((String) mbeans.invoke(rule, "adaptive", new Object[] {""}, new String[] {"java.lang.String"}))
                .startsWith("limit ").contains("in flight 0", "no-load ");
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
