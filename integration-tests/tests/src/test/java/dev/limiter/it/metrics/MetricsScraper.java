package dev.limiter.it.metrics;

import dev.limiter.it.harness.ForkedServer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/** Scrapes a forked server's Prometheus endpoint over real HTTP, at the address its log announces. */
final class MetricsScraper {

    /** Prometheus' own Accept header (2.x scrapes). */
    static final String PROMETHEUS_ACCEPT = "application/openmetrics-text;version=1.0.0,application/openmetrics-text;"
            + "version=0.0.1;q=0.75,text/plain;version=0.0.4;q=0.5,*/*;q=0.1";

    private static final Pattern ANNOUNCED = Pattern.compile(
            "limiter: Prometheus metrics on (http://127\\.0\\.0\\.1:(\\d+)/metrics)");

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();
    final URI uri;

    private MetricsScraper(URI uri) {
        this.uri = uri;
    }

    /** Waits for the endpoint's announcement in {@code server}'s log. */
    static MetricsScraper of(ForkedServer server) {
        Matcher matcher = ANNOUNCED.matcher(server.awaitOutput(ANNOUNCED.pattern(), Duration.ofSeconds(60)));
        matcher.find();
        return new MetricsScraper(URI.create(matcher.group(1)));
    }

    HttpResponse<String> send(String method, String path, String accept) {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri.resolve(path)).timeout(Duration.ofSeconds(30))
                .method(method, HttpRequest.BodyPublishers.noBody());
        if (accept != null) {
            request.header("Accept", accept);
        }
        try {
            return client.send(request.build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    /** {@code GET /metrics} in the text format 0.0.4 (no Accept header). */
    String text() {
        HttpResponse<String> response = send("GET", "/metrics", null);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + uri + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }

    /** {@code GET /metrics} as Prometheus asks for it (OpenMetrics). */
    String openMetrics() {
        HttpResponse<String> response = send("GET", "/metrics", PROMETHEUS_ACCEPT);
        if (response.statusCode() != 200) {
            throw new AssertionError("GET " + uri + ": " + response.statusCode() + " " + response.body());
        }
        return response.body();
    }
}
