package dev.limiter.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The Kubernetes example's rules path at work: a forked Tomcat 11 started with examples/kubernetes' own
 * {@code JAVA_TOOL_OPTIONS} (its image paths pointing at this build's jar and a temporary directory, the
 * Prometheus port 9464 at 0, any free port) reads {@code <dir>/rules.yml} from a ConfigMap volume laid out as the
 * kubelet lays it out, and the kubelet's atomic updates ({@link KubeletConfigMapVolume}) are what it reloads: a
 * valid edit is in force with exact counts, counted over JMX, in the log and on the Prometheus endpoint; a broken
 * edit leaves the last good rules in force.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ConfigMapSwapTest {

    private static final String RULES_V1 = """
            version: 1
            rules:
              - id: cm-api
                match: { http: { path: /api/items/cm/** } }
                key: global
                limit: 3
                window: 1h
            """;

    /** The same rule with a higher limit (fixed window: its count carries over), and a new rule. */
    private static final String RULES_V2 = """
            version: 1
            rules:
              - id: cm-api
                match: { http: { path: /api/items/cm/** } }
                key: global
                limit: 6
                window: 1h
              - id: cm-new
                match: { http: { path: /api/items/cm-new/** } }
                key: global
                limit: 1
                window: 1h
            """;

    /** What a hurried {@code kubectl edit} can leave: the limit of the new rule is not a number. */
    private static final String RULES_BROKEN = """
            version: 1
            rules:
              - id: cm-api
                match: { http: { path: /api/items/cm/** } }
                key: global
                limit: lots
                window: 1h
            """;

    /** Java binds 0.0.0.0 as the wildcard of IPv4 and IPv6 alike, and names it so. */
    private static final Pattern PROMETHEUS = Pattern.compile(
            "limiter: Prometheus metrics on http://(?:0\\.0\\.0\\.0|\\[0:0:0:0:0:0:0:0]):(\\d+)/metrics");

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private KubeletConfigMapVolume volume;
    private String marker;
    private ForkedServer server;

    @BeforeAll
    void start() throws IOException {
        volume = new KubeletConfigMapVolume(Files.createTempDirectory("limiter-it-configmap"));
        volume.write("2026_12_04_10_00_00.123", Map.of("rules.yml", RULES_V1));
        Map<String, Object> container = DeployExamples.named(DeployExamples.list(
                DeployExamples.ofKind(DeployExamples.documents(DeployExamples.kubernetes()
                        .resolve("base/deployment.yaml")), "Deployment"),
                "spec", "template", "spec", "containers"), "shop");
        String options = DeployExamples.localized(DeployExamples.javaToolOptions(container), Agent.jar(),
                volume.dir(), 0);
        assertThat(options).contains("rules=" + volume.dir().resolve("rules.yml"), "prometheus=0.0.0.0:0");
        marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(TestApp.TOMCAT11_JAKARTA, "ConfigMapSwapTest-server",
                List.of(AttachedJmx.markerOption(marker)), Map.of("JAVA_TOOL_OPTIONS", options)));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
        volume.delete();
    }

    @Test
    void theKubeletsSwapIsReloadedAndABrokenEditKeepsTheLastGoodRules() throws Exception {
        Path rules = volume.dir().resolve("rules.yml");
        assertThat(Files.isSymbolicLink(rules)).isTrue();
        assertThat(Files.readSymbolicLink(rules)).isEqualTo(Path.of("..data", "rules.yml"));
        server.awaitOutput("limiter \\S+ started: rules " + Pattern.quote(rules + ", 1 rule"),
                Duration.ofSeconds(60));
        HttpApi http = server.http();

        assertThat(statuses(http, "/api/items/cm/a", 5)).as("version 1: limit 3")
                .containsExactly(200, 200, 200, 429, 429);
        assertThat(http.status("/api/items/cm-new/a")).as("no such rule yet").isEqualTo(200);

        try (AttachedJmx jmx = AttachedJmx.attach(marker)) {
            ObjectName limiter = new ObjectName("dev.limiter:type=Limiter");
            await("the limiter MBean").atMost(Duration.ofSeconds(30)).ignoreExceptions()
                    .until(() -> jmx.connection().isRegistered(limiter));
            assertThat(jmx.connection().getAttribute(limiter, "ReloadCount")).isEqualTo(0L);

            Path first = volume.current();
            volume.write("2026_12_04_10_05_00.456", Map.of("rules.yml", RULES_V2));
            assertThat(first).doesNotExist();
            await("the swapped ConfigMap is reloaded").atMost(Duration.ofSeconds(30))
                    .pollInterval(Duration.ofMillis(100))
                    .until(() -> jmx.connection().getAttribute(limiter, "ReloadCount").equals(1L));
            assertThat(Arrays.asList((String[]) jmx.connection().getAttribute(limiter, "RuleIds")))
                    .containsExactly("cm-api", "cm-new");
            server.awaitOutput("limiter: reloaded rules \\S*rules\\.yml, 2 rules", Duration.ofSeconds(10));

            assertThat(statuses(http, "/api/items/cm/a", 5)).as("version 2: limit 6, the count of 3 carried over")
                    .containsExactly(200, 200, 200, 429, 429);
            assertThat(statuses(http, "/api/items/cm-new/a", 3)).as("version 2's new rule")
                    .containsExactly(200, 429, 429);
            String metrics = scrape();
            assertThat(metrics).contains("limiter_reloads_total{result=\"ok\"} 1")
                    .contains("limiter_reloads_total{result=\"failed\"} 0")
                    .contains("limiter_decisions_total{rule=\"cm-api\",outcome=\"allowed\"} 6");

            volume.write("2026_12_04_10_10_00.789", Map.of("rules.yml", RULES_BROKEN));
            await("the broken edit is refused").atMost(Duration.ofSeconds(30)).pollInterval(Duration.ofMillis(100))
                    .until(() -> jmx.connection().getAttribute(limiter, "FailedReloadCount").equals(1L));
            server.awaitOutput("rules not reloaded, keeping the", Duration.ofSeconds(10));
            assertThat(jmx.connection().getAttribute(limiter, "ReloadCount")).isEqualTo(1L);
            assertThat(Arrays.asList((String[]) jmx.connection().getAttribute(limiter, "RuleIds")))
                    .as("the last good rules stay").containsExactly("cm-api", "cm-new");
            assertThat(statuses(http, "/api/items/cm/a", 2)).as("version 2's limit, spent")
                    .containsExactly(429, 429);
            assertThat(statuses(http, "/api/items/cm-new/a", 1)).as("version 2's rule stays").containsExactly(429);
            assertThat(scrape()).contains("limiter_reloads_total{result=\"failed\"} 1");
        }
    }

    private static List<Integer> statuses(HttpApi http, String path, int count) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            statuses.add(http.status(path));
        }
        return statuses;
    }

    /** GET /metrics over IPv4 loopback, at the port the agent announced for its 0.0.0.0 endpoint. */
    private String scrape() {
        Matcher matcher = PROMETHEUS.matcher(server.awaitOutput(PROMETHEUS.pattern(), Duration.ofSeconds(60)));
        assertThat(matcher.find()).isTrue();
        URI uri = URI.create("http://127.0.0.1:" + matcher.group(1) + "/metrics");
        try {
            HttpResponse<String> response = HttpClient.newHttpClient().send(
                    HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(30)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
            return response.body();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
