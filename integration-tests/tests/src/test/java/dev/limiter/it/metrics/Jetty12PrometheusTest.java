package dev.limiter.it.metrics;

import static dev.limiter.it.jmx.AttachedServer.name;
import static dev.limiter.it.jmx.AttachedServer.rule;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.jmx.AttachedServer;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import javax.management.Attribute;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The Prometheus endpoint end to end (docs/metrics.md): a Jetty 12 server whose rules file asks for the endpoint
 * ({@code metrics.prometheus.listen}, port 0: the log says which), traffic over real HTTP, the scrape parsed by
 * Prometheus' own parsers ({@link Promtool}) and compared, value by value, with what JMX shows (this JVM attached
 * as JConsole would be) and with the status codes the clients saw. Reloads happen over JMX only (the file is not
 * watched), so the reload counts are exact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Jetty12PrometheusTest {

    private static final String RULES = """
            version: 1
            reload: { watch: false }
            metrics: { prometheus: { listen: '%s' } }
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
              - id: kill
                match: { http: { path: /api/items/kill } }
                limit: 1
                window: 1h
            """;
    private static final ObjectName LIMITER = name("dev.limiter:type=Limiter");

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    @TempDir
    Path dir;

    private AttachedServer attached;
    private RulesFile rules;
    private ForkedServer server;
    private MBeanServerConnection mbeans;
    private HttpApi http;
    private MetricsScraper scraper;

    @BeforeAll
    void start() {
        attached = AttachedServer.start(servers, "Jetty12PrometheusTest", RULES.formatted("127.0.0.1:0"),
                rule("kill"));
        rules = attached.rules;
        server = attached.server;
        http = attached.http;
        mbeans = attached.mbeans;
        scraper = MetricsScraper.of(server);
    }

    @AfterAll
    void stop() {
        if (attached != null) {
            attached.close();
        }
    }

    private long attr(ObjectName name, String attribute) throws Exception {
        Object value = mbeans.getAttribute(name, attribute);
        return value instanceof Boolean b ? (b ? 1 : 0) : ((Number) value).longValue();
    }

    private String reload() throws Exception {
        return (String) mbeans.invoke(LIMITER, "reload", new Object[0], new String[0]);
    }

    @Test
    void theScrapeEqualsWhatJmxShowsAndWhatTheClientsSaw() throws Exception {
        int ok = 0;
        int limited = 0;
        for (String client : new String[] {"a", "a", "b", "a", "a", "a", "b", "a"}) {
            int status = http.status("/api/items/counted", "X-Client", client);
            ok += status == 200 ? 1 : 0;
            limited += status == 429 ? 1 : 0;
        }
        assertThat(ok).isEqualTo(5);
        assertThat(limited).isEqualTo(3);
        for (int i = 0; i < 3; i++) {
            assertThat(http.status("/api/items/dry")).as("dry-run lets everything through").isEqualTo(200);
        }
        rules.write("version: 1\nrules: not-a-list\n");
        assertThat(reload()).startsWith("not reloaded");
        rules.write(RULES.formatted("127.0.0.1:0"));
        assertThat(reload()).startsWith("reloaded");

        String text = scraper.text();
        Promtool.Result check = Promtool.checkMetrics(text);
        assertThat(check.exit()).as("promtool check metrics:\n" + check.output() + "\n" + text).isZero();
        assertThat(check.output()).as("no lint problem").isBlank();

        String openMetrics = scraper.openMetrics();
        assertThat(openMetrics).endsWith("# EOF\n");
        assertThat(samples(openMetrics)).as("both formats carry the same samples").isEqualTo(samples(text));
        Map<String, Double> scraped = Promtool.parseOpenMetrics(openMetrics, dir);

        for (String id : new String[] {"counted", "dry", "kill"}) {
            ObjectName mbean = rule(id);
            assertThat(scraped).as(id).containsEntry(decisions(id, "allowed"), (double) attr(mbean, "Allowed"))
                    .containsEntry(decisions(id, "rejected"), (double) attr(mbean, "Rejected"))
                    .containsEntry(decisions(id, "would_reject"), (double) attr(mbean, "WouldReject"))
                    .containsEntry(decisions(id, "error"), (double) attr(mbean, "Errors"))
                    .containsEntry(decisions(id, "exempt"), 0.0)
                    .containsEntry("limiter_active_keys{rule=\"" + id + "\"}", (double) attr(mbean, "ActiveKeys"))
                    .containsEntry("limiter_limit{rule=\"" + id + "\"}", (double) attr(mbean, "Limit"))
                    .containsEntry("limiter_keys_refused_total{rule=\"" + id + "\"}",
                            (double) attr(mbean, "KeysRefused"));
        }
        assertThat(scraped).containsEntry(decisions("counted", "allowed"), (double) ok)
                .containsEntry(decisions("counted", "rejected"), (double) limited)
                .containsEntry(decisions("dry", "allowed"), 1.0)
                .containsEntry(decisions("dry", "would_reject"), 2.0)
                .containsEntry("limiter_active_keys{rule=\"counted\"}", 2.0)
                .containsEntry("limiter_rules", (double) attr(LIMITER, "RuleCount"))
                .containsEntry("limiter_rules", 3.0)
                .containsEntry("limiter_enabled", (double) attr(LIMITER, "Enabled"))
                .containsEntry("limiter_reloads_total{result=\"ok\"}", (double) attr(LIMITER, "ReloadCount"))
                .containsEntry("limiter_reloads_total{result=\"failed\"}",
                        (double) attr(LIMITER, "FailedReloadCount"));
        assertThat(attr(LIMITER, "FailedReloadCount")).isGreaterThanOrEqualTo(1);
        assertThat(scraped.keySet()).as("no store, no store metrics").noneMatch(s -> s.startsWith("limiter_store"));
    }

    private static String decisions(String rule, String outcome) {
        return "limiter_decisions_total{outcome=\"" + outcome + "\",rule=\"" + rule + "\"}";
    }

    /** The sample lines of a scrape, without comments. */
    private static List<String> samples(String exposition) {
        List<String> lines = new ArrayList<>();
        for (String line : exposition.split("\n")) {
            if (!line.startsWith("#") && !line.isEmpty()) {
                lines.add(line);
            }
        }
        return lines;
    }

    @Test
    void theKillSwitchShowsAsEnabledZero() throws Exception {
        mbeans.setAttribute(LIMITER, new Attribute("Enabled", false));
        try {
            assertThat(scraper.text()).contains("\nlimiter_enabled 0\n");
        } finally {
            mbeans.setAttribute(LIMITER, new Attribute("Enabled", true));
        }
        assertThat(scraper.text()).contains("\nlimiter_enabled 1\n");
    }

    @Test
    void headIsAnsweredAndOtherPathsAndMethodsAreRefused() {
        HttpResponse<String> head = scraper.send("HEAD", "/metrics", null);
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(head.body()).isEmpty();
        assertThat(scraper.send("GET", "/", null).statusCode()).isEqualTo(404);
        assertThat(scraper.send("GET", "/metricsx", null).statusCode()).isEqualTo(404);
        HttpResponse<String> post = scraper.send("POST", "/metrics", null);
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
        assertThat(scraper.send("GET", "/metrics", PROMETHEUS_TEXT_ONLY).headers().firstValue("Content-Type"))
                .hasValue("text/plain; version=0.0.4; charset=utf-8");
    }

    private static final String PROMETHEUS_TEXT_ONLY = "text/plain;version=0.0.4";

    /**
     * Scrapers that open connections and send half a request line hold every thread the endpoint has, its queue
     * and its backlog, until it accepts no more: the application answers on as before, and once they go the
     * endpoint serves again.
     */
    @Test
    void scrapersHoldingTheEndpointDoNotHoldUpTheApplication() throws Exception {
        List<java.net.Socket> held = new ArrayList<>();
        try {
            for (int i = 0; i < 60; i++) {
                java.net.Socket socket = new java.net.Socket();
                try {
                    socket.connect(new java.net.InetSocketAddress(scraper.uri.getHost(), scraper.uri.getPort()),
                            2000);
                } catch (java.net.SocketTimeoutException full) {
                    socket.close();
                    break; // the endpoint stopped accepting: its threads, queue and backlog are full
                }
                socket.getOutputStream().write("GET /metr".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
                socket.getOutputStream().flush();
                held.add(socket);
            }
            assertThat(held.size()).as("connections the endpoint took: its threads + queue + dispatcher + backlog")
                    .isGreaterThanOrEqualTo(2 + 16 + 1).isLessThan(60);
            for (int i = 0; i < 20; i++) {
                assertThat(http.status("/api/items/free")).as("the application, while the endpoint is held")
                        .isEqualTo(200);
            }
        } finally {
            for (java.net.Socket socket : held) {
                socket.close();
            }
        }
        await("the endpoint serves again").atMost(Duration.ofSeconds(60)).ignoreExceptions()
                .until(() -> scraper.text().contains("limiter_rules 3"));
    }

    @Test
    void aChangedListenAddressOnReloadAsksForARestart() throws Exception {
        rules.write(RULES.formatted("127.0.0.1:19464"));
        try {
            assertThat(reload()).startsWith("reloaded");
            server.awaitOutput("metrics\\.prometheus\\.listen is now 127\\.0\\.0\\.1:19464; the Prometheus endpoint"
                    + " stays on 127\\.0\\.0\\.1:0 until the JVM restarts", Duration.ofSeconds(30));
            assertThat(scraper.text()).as("still served where it was opened").contains("limiter_rules 3");
        } finally {
            rules.write(RULES.formatted("127.0.0.1:0"));
            assertThat(reload()).startsWith("reloaded");
        }
    }
}
