package dev.limiter.it.metrics;

import static dev.limiter.it.jmx.AttachedServer.name;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.jmx.AttachedServer;
import dev.limiter.it.redis.RedisProcess;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import jdk.jfr.consumer.RecordedEvent;
import jdk.jfr.consumer.RecordingFile;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Redis store's metrics and JFR events (docs/metrics.md): a Jetty 12 server on a private {@code redis-server},
 * scraped while Redis answers and after it is killed; every store series equals the {@code dev.limiter:type=Store}
 * MBean, and each failed round trip is one {@code dev.limiter.StoreFailure} event in a recording started with
 * {@code jcmd}.
 */
class RedisStoreMetricsTest {

    private static final Path SETTINGS = Path.of("../../docs/limiter.jfc").toAbsolutePath().normalize();
    private static final ObjectName STORE = name("dev.limiter:type=Store");

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    @TempDir
    Path dir;

    private RedisProcess redis;
    private AttachedServer attached;
    private ForkedServer server;
    private long pid;

    @BeforeEach
    void start() {
        redis = RedisProcess.start();
        attached = AttachedServer.start(servers, "RedisStoreMetricsTest", """
                version: 1
                reload: { watch: false }
                metrics: { prometheus: { listen: '127.0.0.1:0' } }
                store:
                  type: redis
                  uri: %s
                  timeout: 300ms
                  on-failure: local
                  key-prefix: "metrics-it:"
                rules:
                  - id: shared
                    match: { http: { path: /api/items/shared } }
                    limit: 1000
                    window: 1h
                """.formatted(redis.uri()), STORE);
        server = attached.server;
        pid = attached.pid();
    }

    @AfterEach
    void stop() throws InterruptedException {
        if (attached != null) {
            attached.close();
        }
        if (redis != null) {
            redis.close();
        }
    }

    private long attr(MBeanServerConnection mbeans, String attribute) throws Exception {
        return ((Number) mbeans.getAttribute(STORE, attribute)).longValue();
    }

    @Test
    void storeSeriesEqualTheStoreMBeanAndFailuresAreRecorded() throws Exception {
        MBeanServerConnection mbeans = attached.mbeans;
        HttpApi http = server.http();
        MetricsScraper scraper = MetricsScraper.of(server);
        for (int i = 0; i < 20; i++) {
            assertThat(http.status("/api/items/shared")).isEqualTo(200);
        }

        String text = scraper.text();
        Promtool.Result check = Promtool.checkMetrics(text);
        assertThat(check.exit()).as("promtool check metrics:\n" + check.output() + "\n" + text).isZero();
        assertThat(check.output()).as("no lint problem").isBlank();
        Map<String, Double> up = Promtool.parseOpenMetrics(scraper.openMetrics(), Files.createDirectory(
                dir.resolve("up")));
        assertThat(mbeans.getAttribute(STORE, "State")).isEqualTo("up");
        long roundTrips = attr(mbeans, "RoundTrips");
        assertThat(roundTrips).as("one round trip per request at least").isGreaterThanOrEqualTo(20);
        assertThat(up).containsEntry("limiter_store_calls_total{result=\"ok\"}", (double) roundTrips)
                .containsEntry("limiter_store_calls_total{result=\"error\"}", (double) attr(mbeans, "Errors"))
                .containsEntry("limiter_store_calls_total{result=\"timeout\"}", (double) attr(mbeans, "Timeouts"))
                .containsEntry("limiter_store_calls_total{result=\"fallback\"}", (double) attr(mbeans, "Fallbacks"))
                .containsEntry("limiter_store_circuit_open", 0.0)
                .containsEntry("limiter_store_latency_seconds_count", (double) roundTrips)
                .containsEntry("limiter_store_latency_seconds_bucket{le=\"+Inf\"}", (double) roundTrips)
                .containsEntry("limiter_decisions_total{outcome=\"allowed\",rule=\"shared\"}", 20.0)
                .doesNotContainKey("limiter_active_keys{rule=\"shared\"}");
        double previous = 0;
        for (long micros = 64; micros <= 1 << 20; micros *= 2) {
            String bucket = "limiter_store_latency_seconds_bucket{le=\"" + seconds(micros) + "\"}";
            assertThat(up).containsKey(bucket);
            assertThat(up.get(bucket)).as(bucket).isGreaterThanOrEqualTo(previous);
            previous = up.get(bucket);
        }
        assertThat(previous).isLessThanOrEqualTo(roundTrips);

        long errorsBefore = attr(mbeans, "Errors");
        Jcmd.run(pid, "JFR.start", "name=store", "settings=" + SETTINGS);
        redis.kill();
        for (int i = 0; i < 5; i++) {
            assertThat(http.status("/api/items/shared")).as("on-failure: local").isEqualTo(200);
        }
        await("the circuit opens").atMost(Duration.ofSeconds(30))
                .until(() -> "fallback".equals(mbeans.getAttribute(STORE, "State")));
        Path recording = dir.resolve("store.jfr");
        Jcmd.run(pid, "JFR.dump", "name=store", "filename=" + recording);
        Jcmd.run(pid, "JFR.stop", "name=store");
        long errors = attr(mbeans, "Errors");
        long timeouts = attr(mbeans, "Timeouts");
        Map<String, Double> down = Promtool.parseOpenMetrics(scraper.openMetrics(), Files.createDirectory(
                dir.resolve("down")));

        assertThat(errors).as("the first check after the kill failed").isGreaterThan(errorsBefore);
        assertThat(down).containsEntry("limiter_store_circuit_open", 1.0)
                .containsEntry("limiter_store_calls_total{result=\"error\"}", (double) errors)
                .containsEntry("limiter_store_calls_total{result=\"timeout\"}", (double) timeouts)
                .containsEntry("limiter_store_calls_total{result=\"fallback\"}", (double) attr(mbeans, "Fallbacks"))
                .containsEntry("limiter_store_calls_total{result=\"ok\"}", (double) attr(mbeans, "RoundTrips"));
        assertThat(attr(mbeans, "Fallbacks")).isGreaterThanOrEqualTo(5);

        List<RecordedEvent> failures = new ArrayList<>();
        for (RecordedEvent event : RecordingFile.readAllEvents(recording)) {
            if (event.getEventType().getName().equals("dev.limiter.StoreFailure")) {
                failures.add(event);
            }
        }
        assertThat(failures).as("one event per failed round trip").hasSize((int) (errors - errorsBefore));
        long timedOut = 0;
        for (RecordedEvent event : failures) {
            assertThat(event.getString("store")).isEqualTo("redis");
            assertThat(event.getString("kind")).isIn("timeout", "error");
            assertThat(event.getString("message")).isNotBlank();
            timedOut += event.getString("kind").equals("timeout") ? 1 : 0;
        }
        assertThat(timedOut).isLessThanOrEqualTo(timeouts);
    }

    private static String seconds(long micros) {
        String fraction = Long.toString(1_000_000 + micros % 1_000_000).substring(1).replaceAll("(?<=.)0+$", "");
        return micros / 1_000_000 + "." + fraction;
    }
}
