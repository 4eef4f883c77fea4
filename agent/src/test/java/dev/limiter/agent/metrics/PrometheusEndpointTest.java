package dev.limiter.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.reload.RuleSetHolder;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The endpoint over real HTTP on loopback: the formats, HEAD, and what it refuses. */
class PrometheusEndpointTest {

    @TempDir
    Path dir;

    private RuleSetHolder holder;
    private PrometheusEndpoint endpoint;
    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

    @BeforeEach
    void open() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, "version: 1\nreload: { watch: false }\nrules:\n  - id: a\n"
                + "    match: { http: { path: /a } }\n    limit: 3\n    window: 1h\n");
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        endpoint = PrometheusEndpoint.open("127.0.0.1", 0, new LimiterMetrics(holder, null));
    }

    @AfterEach
    void close() {
        endpoint.close();
        holder.close();
    }

    private HttpResponse<String> send(String method, String path, String accept) throws Exception {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:"
                + endpoint.address().getPort() + path)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (accept != null) {
            request.header("Accept", accept);
        }
        return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
    }

    @Test
    void getAnswersPrometheusTextByDefault() throws Exception {
        HttpResponse<String> response = send("GET", "/metrics", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body()).contains("limiter_limit{rule=\"a\"} 3\n").doesNotContain("# EOF");
        assertThat(response.body()).isEqualTo(new LimiterMetrics(holder, null)
                .render(ExpositionFormat.PROMETHEUS_TEXT));
    }

    @Test
    void openMetricsWhenTheScraperAsksForIt() throws Exception {
        HttpResponse<String> response = send("GET", "/metrics?x=1",
                "application/openmetrics-text;version=1.0.0,text/plain;version=0.0.4;q=0.5,*/*;q=0.1");

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type"))
                .hasValue("application/openmetrics-text; version=1.0.0; charset=utf-8");
        assertThat(response.body()).contains("# TYPE limiter_decisions counter\n").endsWith("# EOF\n");
    }

    @Test
    void headHasTheHeadersAndNoBody() throws Exception {
        HttpResponse<String> response = send("HEAD", "/metrics", null);

        assertThat(response.statusCode()).isEqualTo(200);
        assertThat(response.headers().firstValue("Content-Type")).hasValue("text/plain; version=0.0.4; charset=utf-8");
        assertThat(response.body()).isEmpty();
    }

    @Test
    void otherPathsAndMethodsAreRefused() throws Exception {
        assertThat(send("GET", "/", null).statusCode()).isEqualTo(404);
        assertThat(send("GET", "/metrics/x", null).statusCode()).isEqualTo(404);
        HttpResponse<String> post = send("POST", "/metrics", null);
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(post.headers().firstValue("Allow")).hasValue("GET, HEAD");
        assertThat(send("DELETE", "/metrics", null).statusCode()).isEqualTo(405);
        assertThat(send("GET", "/metrics", null).statusCode()).as("still serving").isEqualTo(200);
    }

    @Test
    void theServersThreadsAreDaemons() throws Exception {
        send("GET", "/metrics", null);
        Thread[] threads = new Thread[Thread.activeCount() + 16];
        int n = Thread.enumerate(threads);
        int ours = 0;
        for (int i = 0; i < n; i++) {
            if (threads[i].getName().startsWith("limiter-metrics-http-")) {
                ours++;
                assertThat(threads[i].isDaemon()).as(threads[i].getName()).isTrue();
            }
        }
        assertThat(ours).isBetween(1, PrometheusEndpoint.THREADS);
    }
}
