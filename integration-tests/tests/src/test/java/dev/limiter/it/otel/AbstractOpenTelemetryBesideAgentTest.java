package dev.limiter.it.otel;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The OpenTelemetry Java agent and ours in one JVM (docs/opentelemetry.md), in the order a subclass gives: exact
 * 429 counts, OTel's HTTP server metrics carrying our 429s, docs/otel-jmx.yaml's metrics equal to our own
 * Prometheus endpoint's, and neither agent logging an error or a warning. OTel exports through its Prometheus
 * exporter on a free port; its traces and logs go nowhere.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractOpenTelemetryBesideAgentTest {

    private static final String RULES = """
            version: 1
            reload: { watch: false }
            rules:
              - id: counted
                match: { http: { path: /api/items/counted } }
                key: header:X-Client
                strategy: token-bucket
                limit: 3
                window: 1h
              - id: dry
                match: { http: { path: /api/items/dry } }
                strategy: token-bucket
                limit: 1
                window: 1h
                mode: dry-run
            """;
    /** What docs/otel-jmx.yaml maps, as our endpoint names it: each must read the same through OTel. */
    private static final List<String> MAPPED = List.of(
            "limiter_decisions_total{rule=\"counted\",outcome=\"allowed\"}",
            "limiter_decisions_total{rule=\"counted\",outcome=\"rejected\"}",
            "limiter_decisions_total{rule=\"counted\",outcome=\"would_reject\"}",
            "limiter_decisions_total{rule=\"counted\",outcome=\"exempt\"}",
            "limiter_decisions_total{rule=\"counted\",outcome=\"error\"}",
            "limiter_decisions_total{rule=\"dry\",outcome=\"allowed\"}",
            "limiter_decisions_total{rule=\"dry\",outcome=\"would_reject\"}",
            "limiter_active_keys{rule=\"counted\"}",
            "limiter_limit{rule=\"counted\"}",
            "limiter_keys_refused_total{rule=\"counted\"}",
            "limiter_keys_admitted_without_state_total{rule=\"counted\"}",
            "limiter_waits_total{rule=\"counted\"}",
            "limiter_waiting{rule=\"counted\"}",
            "limiter_wait_refused_total{rule=\"counted\"}",
            "limiter_internal_errors_total{}",
            "limiter_rules{}",
            "limiter_reloads_total{result=\"ok\"}",
            "limiter_reloads_total{result=\"failed\"}");

    /** JUL's first line of a record of ours: {@code Dec 05, 2026 3:35:41 AM dev.limiter.agent.startup.Startup}. */
    private static final Pattern JUL_SOURCE = Pattern.compile(
            ".* [AP]M dev\\.limiter\\.(agent|bootstrap|core|rules)\\..*");
    /** The same record through Spring Boot's JUL-to-SLF4J bridge: {@code WARN ... d.l.agent.metrics.X : ...}. */
    private static final Pattern BRIDGED = Pattern.compile(
            ".*\\b(WARN|ERROR)\\b.* (d|dev)\\.l(imiter)?\\.(agent|bootstrap|core|rules)\\..*");

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private Scrape otel;
    private Scrape ours;

    /** The application. */
    abstract TestApp app();

    /** True: {@code -javaagent:otel -javaagent:limiter}; false: the reverse. */
    abstract boolean otelFirst();

    @BeforeAll
    void start() {
        rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        int otelPort = freePort();
        List<String> otelOptions = List.of("-javaagent:" + otelJar(), "-Dotel.metrics.exporter=prometheus",
                "-Dotel.exporter.prometheus.host=127.0.0.1", "-Dotel.exporter.prometheus.port=" + otelPort,
                "-Dotel.traces.exporter=none", "-Dotel.logs.exporter=none", "-Dotel.jmx.config=" + jmxConfig(),
                "-Dotel.jmx.discovery.delay=1000", "-Dotel.service.name=limiter-it");
        int ourPort = freePort();
        String ourAgent = Agent.option(rules.path(), "prometheus=127.0.0.1:" + ourPort);
        List<String> options = new ArrayList<>(List.of("-Dlimiter.jmx.delay=0"));
        if (otelFirst()) {
            options.addAll(otelOptions);
            options.add(ourAgent);
        } else {
            options.add(ourAgent);
            options.addAll(otelOptions);
        }
        server = servers.track(ForkedServer.start(app(), getClass().getSimpleName() + "-server", options));
        http = server.http();
        ours = new Scrape("http://127.0.0.1:" + ourPort + "/metrics");
        otel = new Scrape("http://127.0.0.1:" + otelPort + "/metrics");
        // the endpoint opens when the MBeans register; its log line is not awaited: Spring Boot may be
        // re-wiring JUL at that moment
        Awaitility.await("our Prometheus endpoint").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(200))
                .ignoreExceptions().until(() -> ours.text().contains("limiter_rules"));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
        if (rules != null) {
            rules.delete();
        }
    }

    @Test
    void bothAgentsCountTheSameRequestsAndNeitherComplains() {
        int ok = 0;
        int limited = 0;
        for (String client : new String[] {"a", "a", "b", "a", "a", "a", "b", "a"}) {
            HttpResponse<String> response = http.get("/api/items/counted", "X-Client", client);
            if (response.statusCode() == 429) {
                limited++;
            } else {
                assertThat(response.statusCode()).as(response.body()).isEqualTo(200);
                ok++;
            }
        }
        assertThat(ok).isEqualTo(5);
        assertThat(limited).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(http.status("/api/items/dry")).as("dry-run lets everything through").isEqualTo(200);
        }

        Awaitility.await("OTel's HTTP server metrics count our 429s").atMost(Duration.ofSeconds(60))
                .pollInterval(Duration.ofMillis(500)).untilAsserted(() -> {
                    String text = otel.text();
                    assertThat(sum(text, "http_server_request_duration_seconds_count",
                            "http_response_status_code=\"429\"")).as(text).isEqualTo(3);
                    assertThat(sum(text, "http_server_request_duration_seconds_count",
                            "http_response_status_code=\"200\"")).as(text).isGreaterThanOrEqualTo(8);
                });

        String our = ours.text();
        assertThat(value(our, "limiter_decisions_total{rule=\"counted\",outcome=\"rejected\"}")).isEqualTo(3);
        assertThat(value(our, "limiter_decisions_total{rule=\"counted\",outcome=\"allowed\"}")).isEqualTo(5);
        assertThat(value(our, "limiter_decisions_total{rule=\"dry\",outcome=\"would_reject\"}")).isEqualTo(2);
        Awaitility.await("docs/otel-jmx.yaml's metrics equal our endpoint's").atMost(Duration.ofSeconds(90))
                .pollInterval(Duration.ofSeconds(1)).untilAsserted(() -> {
                    String theirs = otel.text();
                    for (String series : MAPPED) {
                        assertThat(value(theirs, series)).as(series + " through OTel:\n" + theirs)
                                .isEqualTo(value(our, series));
                    }
                });

        String log = server.output();
        assertThat(log).as("OTel started").contains("opentelemetry-javaagent - version:");
        assertThat(log).as("the limiter started").containsPattern("limiter \\S+ started: rules ");
        assertThat(log.lines().filter(line -> line.contains("[otel.javaagent")
                && (line.contains("] ERROR ") || line.contains("] WARN ")))).as(log).isEmpty();
        assertThat(ourComplaints(log)).as(log).isEmpty();
    }

    /**
     * Our JUL records above INFO: a {@code SEVERE:} or {@code WARNING:} line under a source line of ours (the
     * JVM's own {@code WARNING:} lines, e.g. Java 25's about Netty's {@code Unsafe}, are not ours), or one that
     * Spring Boot's JUL bridge printed in its own format.
     */
    private static List<String> ourComplaints(String log) {
        List<String> lines = log.lines().toList();
        List<String> complaints = new ArrayList<>();
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if ((line.startsWith("SEVERE:") || line.startsWith("WARNING:"))
                    && JUL_SOURCE.matcher(lines.get(i - 1)).matches()) {
                complaints.add(lines.get(i - 1) + " " + line);
            } else if (BRIDGED.matcher(line).matches()) {
                complaints.add(line);
            }
        }
        return complaints;
    }

    /**
     * The value of {@code series} ({@code name{a="x",b="y"}}) in a Prometheus text exposition: the one line with
     * that name whose labels include those given (OTel adds its own, e.g. {@code otel_scope_name}). Fails when
     * none or several match.
     */
    static double value(String text, String series) {
        int brace = series.indexOf('{');
        String name = series.substring(0, brace);
        String[] labels = series.substring(brace + 1, series.length() - 1).split(",(?=[a-z_]+=\")");
        List<Double> found = new ArrayList<>();
        for (String line : text.lines().toList()) {
            if (matches(line, name, labels)) {
                found.add(Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1)));
            }
        }
        assertThat(found).as(series + " in\n" + text).hasSize(1);
        return found.get(0);
    }

    /** The sum over every line of {@code name} whose labels include {@code label}. */
    static double sum(String text, String name, String label) {
        double total = 0;
        for (String line : text.lines().toList()) {
            if (matches(line, name, new String[] {label})) {
                total += Double.parseDouble(line.substring(line.lastIndexOf(' ') + 1));
            }
        }
        return total;
    }

    private static boolean matches(String line, String name, String[] labels) {
        if (!line.startsWith(name + "{") && !line.startsWith(name + " ")) {
            return false;
        }
        String labelText = line.startsWith(name + "{") ? line.substring(name.length(), line.lastIndexOf('}') + 1) : "";
        for (String label : labels) {
            if (!label.isEmpty() && !labelText.contains("{" + label + ",") && !labelText.contains("," + label + ",")
                    && !labelText.contains("," + label + "}") && !labelText.contains("{" + label + "}")) {
                return false;
            }
        }
        return true;
    }

    private static Path otelJar() {
        Path jar = Path.of(System.getProperty("limiter.it.otel.agent.jar", "target/otel/opentelemetry-javaagent.jar"))
                .toAbsolutePath();
        assertThat(jar).as("copied by this module's build").isRegularFile();
        return jar;
    }

    private static Path jmxConfig() {
        Path config = Path.of(System.getProperty("limiter.it.otel.jmx.config", "../../docs/otel-jmx.yaml"))
                .toAbsolutePath().normalize();
        assertThat(Files.isRegularFile(config)).as(config.toString()).isTrue();
        return config;
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
