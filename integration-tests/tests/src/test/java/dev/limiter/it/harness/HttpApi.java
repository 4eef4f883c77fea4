package dev.limiter.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * Plain HTTP/1.1 GETs to one forked server, always to {@code 127.0.0.1} (not {@code localhost}, which may be
 * {@code ::1}): the peer address is part of what {@code key: ip} rules and trusted-proxy tests assert.
 * Methods throw unchecked exceptions so they can be used inside Awaitility conditions.
 */
public final class HttpApi {

    /** Longer than the slowest gated request ({@code /reports/...?gate=}) waits on the server. */
    private static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(90);

    private final HttpClient client = HttpClient.newBuilder()
            .version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(20))
            .build();
    private final String base;

    HttpApi(int port) {
        this.base = "http://127.0.0.1:" + port;
    }

    /** GET {@code pathAndQuery} with optional header name/value pairs. */
    public HttpResponse<String> get(String pathAndQuery, String... headers) {
        try {
            return client.send(request(pathAndQuery, headers), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("GET " + pathAndQuery, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: GET " + pathAndQuery, e);
        }
    }

    /** POST {@code body} as {@code text/plain} to {@code pathAndQuery}. */
    public HttpResponse<String> post(String pathAndQuery, String body) {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(REQUEST_TIMEOUT)
                .header("Content-Type", "text/plain")
                .POST(HttpRequest.BodyPublishers.ofString(body))
                .build();
        try {
            return client.send(request, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException("POST " + pathAndQuery, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted: POST " + pathAndQuery, e);
        }
    }

    public CompletableFuture<HttpResponse<String>> getAsync(String pathAndQuery, String... headers) {
        return client.sendAsync(request(pathAndQuery, headers), HttpResponse.BodyHandlers.ofString());
    }

    /** The status of a GET, for Awaitility conditions. */
    public int status(String pathAndQuery, String... headers) {
        return get(pathAndQuery, headers).statusCode();
    }

    /** A control endpoint's number, e.g. {@code /app/filter-count}. */
    public long number(String pathAndQuery) {
        HttpResponse<String> response = get(pathAndQuery);
        if (response.statusCode() != 200) {
            throw new IllegalStateException(
                    "GET " + pathAndQuery + " -> " + response.statusCode() + " " + response.body());
        }
        return Long.parseLong(response.body().trim());
    }

    private HttpRequest request(String pathAndQuery, String... headers) {
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(base + pathAndQuery))
                .timeout(REQUEST_TIMEOUT)
                .GET();
        for (int i = 0; i + 1 < headers.length; i += 2) {
            request.header(headers[i], headers[i + 1]);
        }
        return request.build();
    }
}
