package dev.limiter.it.metrics;

import static dev.limiter.it.jmx.AttachedServer.name;
import static dev.limiter.it.jmx.AttachedServer.rule;
import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RateLimitHeaders;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.jmx.AttachedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The standard Prometheus JMX exporter ({@code jmx_prometheus_javaagent}, copied into {@code target/} by the
 * build) run as a second {@code -javaagent} beside ours on a Jetty 12 server, with the configuration that
 * docs/metrics.md gives ({@code jmx-exporter.yml}): traffic over real HTTP, then the exporter's {@code /metrics}
 * parsed by Prometheus' own parsers ({@link Promtool}) and compared, value by value, with what JMX shows (this
 * JVM attached as JConsole would be) and with the status codes the clients saw. The names asserted are the ones
 * the exporter derives from our ObjectNames, as docs/metrics.md lists them.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JmxExporterBesideAgentTest {

    private static final String RULES = """
            version: 1
            reload: { watch: false }
            rules:
              - id: counted
                match: { http: { path: /api/items/counted } }
                key: header:X-Client
                limit: 3
                window: 1h
              - id: dry
                match: { http: { path: /api/items/dry } }
                limit: 1
                window: 1h
                mode: dry-run
              - id: coexist
                match: { http: { path: /api/items/coexist } }
                limit: 1
                window: 1h
            """;
    private static final ObjectName LIMITER = name("dev.limiter:type=Limiter");
    private static final String[] RULE_ATTRIBUTES = {"Allowed", "Rejected", "WouldReject", "Errors", "Exempt",
        "ActiveKeys", "KeysRefused", "Limit", "WindowMillis"};

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    @TempDir
    Path dir;

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    private AttachedServer attached;
    private ForkedServer server;
    private MBeanServerConnection mbeans;
    private HttpApi http;
    private URI exporter;

    @BeforeAll
    void start() {
        int port = freePort();
        attached = AttachedServer.start(servers, TestApp.JETTY12_JAKARTA, "JmxExporterBesideAgentTest", RULES,
                List.of("-javaagent:" + exporterJar() + "=127.0.0.1:" + port + ":" + exporterConfig()), List.of(),
                rule("coexist"));
        server = attached.server;
        http = attached.http;
        mbeans = attached.mbeans;
        exporter = URI.create("http://127.0.0.1:" + port + "/metrics");
    }

    @AfterAll
    void stop() {
        if (attached != null) {
            attached.close();
        }
    }

    /** The jar the build copied ({@code limiter.it.jmx.exporter.jar}, see this module's pom). */
    private static Path exporterJar() {
        Path jar = Path.of(System.getProperty("limiter.it.jmx.exporter.jar",
                "target/jmx-exporter/jmx_prometheus_javaagent.jar")).toAbsolutePath();
        if (!Files.isRegularFile(jar)) {
            throw new IllegalStateException(jar + " is missing: the tests module's build copies it (mvn verify)");
        }
        return jar;
    }

    /** The configuration docs/metrics.md shows, as a file (test resources are copied to target/test-classes). */
    private static Path exporterConfig() {
        try {
            return Path.of(JmxExporterBesideAgentTest.class.getResource("/jmx-exporter.yml").toURI());
        } catch (URISyntaxException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A port free now; the exporter binds it a moment later (nothing else on this machine picks fixed ports). */
    private static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private long attr(ObjectName name, String attribute) throws Exception {
        Object value = mbeans.getAttribute(name, attribute);
        return value instanceof Boolean b ? (b ? 1 : 0) : ((Number) value).longValue();
    }

    private HttpResponse<String> scrape(String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(exporter).timeout(Duration.ofSeconds(30)).GET();
        if (accept != null) {
            request.header("Accept", accept);
        }
        try {
            HttpResponse<String> response = client.send(request.build(), HttpResponse.BodyHandlers.ofString());
            assertThat(response.statusCode()).as("GET " + exporter + ": " + response.body()).isEqualTo(200);
            return response;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** {@code dev_limiter_rule_<attribute>{name="<id>"}}: the exporter's default name for a rule's attribute. */
    private static String ruleSeries(String id, String attribute) {
        return "dev_limiter_rule_" + attribute.toLowerCase() + "{name=\"" + id + "\"}";
    }

    @Test
    void theExporterShowsWhatJmxShowsAndWhatTheClientsSaw() throws Exception {
        int ok = 0;
        int limited = 0;
        for (String client : new String[] {"a", "a", "b", "a", "a", "a", "b", "a"}) {
            HttpResponse<String> response = http.get("/api/items/counted", "X-Client", client);
            if (response.statusCode() == 429) {
                limited++;
                assertThat(RateLimitHeaders.draft(response).rule()).as("our limiter answered").isEqualTo("counted");
                assertThat(RateLimitHeaders.draft(response).remaining()).isZero();
                assertThat(RateLimitHeaders.retryAfter(response)).isPositive();
            } else {
                assertThat(response.statusCode()).as(RateLimitHeaders.describe(response)).isEqualTo(200);
                ok++;
            }
        }
        assertThat(ok).isEqualTo(5);
        assertThat(limited).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(http.status("/api/items/dry")).as("dry-run lets everything through").isEqualTo(200);
        }

        String text = scrape(null).body();
        Promtool.Result check = Promtool.checkMetrics(text);
        assertThat(check.exit()).as("promtool check metrics:\n" + check.output() + "\n" + text).isZero();
        assertThat(check.output()).as("no lint problem:\n" + text).isBlank();

        HttpResponse<String> openMetrics = scrape(MetricsScraper.PROMETHEUS_ACCEPT);
        assertThat(openMetrics.headers().firstValue("Content-Type")).hasValueSatisfying(
                type -> assertThat(type).startsWith("application/openmetrics-text"));
        Map<String, Double> scraped = Promtool.parseOpenMetrics(openMetrics.body(), dir);

        for (String id : new String[] {"counted", "dry"}) {
            for (String attribute : RULE_ATTRIBUTES) {
                assertThat(scraped).as(id + " " + attribute + " in\n" + text)
                        .containsEntry(ruleSeries(id, attribute), (double) attr(rule(id), attribute));
            }
        }
        assertThat(scraped).as(text)
                .containsEntry(ruleSeries("counted", "Allowed"), (double) ok)
                .containsEntry(ruleSeries("counted", "Rejected"), (double) limited)
                .containsEntry(ruleSeries("counted", "ActiveKeys"), 2.0)
                .containsEntry(ruleSeries("counted", "Limit"), 3.0)
                .containsEntry(ruleSeries("dry", "Allowed"), 1.0)
                .containsEntry(ruleSeries("dry", "WouldReject"), 2.0)
                .containsEntry(ruleSeries("dry", "Rejected"), 0.0)
                .containsEntry("dev_limiter_limiter_rulecount", 3.0)
                .containsEntry("dev_limiter_limiter_enabled", (double) attr(LIMITER, "Enabled"))
                .containsEntry("dev_limiter_limiter_reloadcount", (double) attr(LIMITER, "ReloadCount"))
                .containsEntry("dev_limiter_limiter_internalerrors", 0.0);
        assertThat(scraped.keySet()).as("rate-limit keys are never series nor labels")
                .noneMatch(series -> series.contains("\"a\"") || series.contains("\"b\""));
    }

    @Test
    void bothAgentsStartCleanlyAndOursStillLimits() {
        HttpResponse<String> allowed = http.get("/api/items/coexist");
        assertThat(allowed.statusCode()).as(RateLimitHeaders.describe(allowed)).isEqualTo(200);
        assertThat(RateLimitHeaders.draft(allowed).rule()).isEqualTo("coexist");
        assertThat(RateLimitHeaders.draft(allowed).remaining()).isZero();
        HttpResponse<String> rejected = http.get("/api/items/coexist");
        assertThat(rejected.statusCode()).as(RateLimitHeaders.describe(rejected)).isEqualTo(429);
        assertThat(RateLimitHeaders.draft(rejected).rule()).isEqualTo("coexist");
        assertThat(RateLimitHeaders.retryAfter(rejected)).isPositive();

        String exposition = scrape(null).body();
        assertThat(exposition).as("the exporter is the one we pinned, reading its config")
                .contains("jmx_exporter_build_info{name=\"jmx_prometheus_javaagent\",version=\"1.0.1\"} 1")
                .contains("jmx_config_reload_failure_total 0");
        assertThat(server.output()).as("both agents started without errors")
                .doesNotContain("Exception", "SEVERE", "WARNING", "Failed", "Error:");
    }
}
