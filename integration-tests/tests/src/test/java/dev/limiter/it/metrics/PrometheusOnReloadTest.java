package dev.limiter.it.metrics;

import static dev.limiter.it.jmx.AttachedServer.name;
import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.jmx.AttachedServer;
import java.time.Duration;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What the rules file says about the Prometheus endpoint holds once the file is fixed: a Jetty 12 server started
 * with an invalid file (so no {@code metrics:} section in force, no endpoint) opens the endpoint at the first
 * reload that asks for one, without a restart, and serves the reloaded rules there.
 */
class PrometheusOnReloadTest {

    private static final ObjectName LIMITER = name("dev.limiter:type=Limiter");
    private static final String INVALID = """
            version: 1
            reload: { watch: false }
            metrics: { prometheus: { listen: '127.0.0.1:0' } }
            rules:
              - id: broken
                match: { http: { path: /api/** } }
                limit: -1
                window: 1m
            """;
    private static final String FIXED = INVALID.replace("limit: -1", "limit: 5");

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    @Test
    void aReloadThatAsksForTheEndpointOpensIt() throws Exception {
        try (AttachedServer attached = AttachedServer.start(servers, "PrometheusOnReloadTest", INVALID, LIMITER)) {
            attached.server.awaitOutput("invalid rules", Duration.ofSeconds(60));
            assertThat(attached.http.status("/api/hello")).isEqualTo(200);
            assertThat(attached.server.output()).as("invalid at start: no metrics section in force")
                    .doesNotContain("Prometheus metrics on");

            attached.rules.write(FIXED);
            assertThat((String) attached.mbeans.invoke(LIMITER, "reload", new Object[0], new String[0]))
                    .startsWith("reloaded");
            MetricsScraper scraper = MetricsScraper.of(attached.server);
            assertThat(scraper.text()).contains("limiter_rules 1");
            assertThat(attached.server.output()).doesNotContain("until the JVM restarts");
        }
    }
}
