package dev.limiter.it.helidon;

import static dev.limiter.it.ScenarioContract.assertRejected;
import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.TestApp;
import dev.limiter.it.harness.TestJvmAtLeast;
import dev.limiter.it.reactive.AbstractReactiveHttpLimiterTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * {@code http:} rules on a Helidon SE 4.5 WebServer (virtual threads; Java 21+, skipped on an older test JVM), in
 * one real server with the built agent jar: the reactive HTTP contract ({@link AbstractReactiveHttpLimiterTest}:
 * exact 429 counts, the servlet matrix's headers and body, every key kind, dry-run, reloads both ways, JMX counts,
 * permits back on complete and on error), plus Helidon's own: only its routing is woven, handlers run on virtual
 * threads, spellings of a limited path, a rejected POST's connection, a waiting rule parks the request's virtual
 * thread, HTTP/2 streams are limited like HTTP/1.1 requests, and a client that hangs up mid-request gives its
 * {@code concurrency} permit back once, when its handler ends (Helidon does not stop a handler whose client left).
 */
@TestJvmAtLeast(value = 21, what = "Helidon 4")
class Helidon4LimiterTest extends AbstractReactiveHttpLimiterTest {

    @Override
    protected TestApp app() {
        return TestApp.HELIDON4_SE;
    }

    /** A waiting rule, a path for spellings of it, a POST path, an HTTP/2 path and an HTTP/2 concurrency rule. */
    @Override
    protected String stackRules() {
        return """
                  - id: waits
                    match: { http: { path: /api/items/waits } }
                    strategy: token-bucket
                    limit: 2
                    window: 10s         # a burst of 2, then one permit every 5 s: the third waits for it
                    on-limit: wait
                    max-wait: 30s
                    max-waiters: 10
                  - id: secret
                    match: { http: { path: /api/items/secret } }
                    limit: 1
                    window: 1h
                  - id: posted
                    match: { http: { path: /api/items/posted } }
                    limit: 1
                    window: 1h
                  - id: h2
                    match: { http: { path: /api/items/h2 } }
                    limit: 2
                    window: 1h
                  - id: h2-held
                    match: { http: { path: /h2/hold/** } }
                    strategy: concurrency
                    limit: 2
                """;
    }

    @Override
    protected int stackRuleCount() {
        return 5;
    }

    @Test
    void onlyTheRoutingIsWovenAndHandlersRunOnVirtualThreads() throws Exception {
        assertThat(http.get("/app/runtime").body()).endsWith("thread=virtual");
        ObjectName limiter = new ObjectName("dev.limiter:type=Limiter");
        int[] woven = new int[1];
        await("the limiter MBean").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions().until(() -> {
            woven[0] = (Integer) jmx().connection().getAttribute(limiter, "WovenTypes");
            return true;
        });
        // HttpRoutingImpl; no servlet, mapper or other entry point exists here, and the rules name no classes
        assertThat(woven[0]).isEqualTo(1);
    }

    @Test
    void spellingsOfALimitedPathAreCountedAsThatPathOrNeverReachItsHandler() {
        HttpResponse<String> first = http.get("/api/items/secret");
        assertThat(first.body()).as(describe(first)).isEqualTo("item secret");
        List<String> spellings = List.of("/api/items/secret", "/api/items/secret/", "/api/./items/./secret",
                "/api/items/x/../secret", "/x/../api/items/secret", "/api/items/x/%2e%2e/secret",
                "/api/items/%73ecret", "/%61pi/items/secret", "/api;x=y/items/secret", "/api/items;x=y/secret",
                "/api/items/secret;jsessionid=1", "/api/items/secret;", "//api/items/secret", "/api//items//secret");
        for (String spelling : spellings) {
            HttpResponse<String> response = http.get(spelling);
            // the budget is spent: Helidon may refuse a spelling (400, 404), but none may reach the handler, and
            // one that would is the rule's 429
            assertThat(response.body()).as(spelling + ": " + describe(response)).isNotEqualTo("item secret");
            assertThat(response.statusCode()).as(spelling + ": " + describe(response)).isIn(400, 404, 429);
            if (response.statusCode() == 429) {
                assertRejected(response, "secret", 3600);
            }
        }
        assertThat(attribute("secret", "Allowed")).isEqualTo(1);
    }

    @Test
    void aRejectedRequestWithAnUnreadBodyLeavesItsKeptAliveConnectionUsable() throws Exception {
        HttpResponse<String> admitted = http.post("/api/items/posted", "first");
        assertThat(admitted.body()).as(describe(admitted)).isEqualTo("item posted 5");
        try (Socket client = new Socket("127.0.0.1", server.port())) {
            client.setSoTimeout(20_000);
            String body = "x".repeat(20_000);
            OutputStream out = client.getOutputStream();
            out.write(("POST /api/items/posted HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n"
                    + "Content-Length: " + body.length() + "\r\n\r\n" + body).getBytes(StandardCharsets.US_ASCII));
            out.flush();
            String rejected = readResponse(client);
            assertThat(rejected).startsWith("HTTP/1.1 429").contains("\"rule\":\"posted\"");
            out.write("GET /app/handled HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.flush();
            assertThat(readResponse(client)).as("the next request on the same connection").startsWith("HTTP/1.1 200");
        }
    }

    @Test
    void aWaitingRuleParksTheRequestsVirtualThreadUntilItsPermitIsDue() {
        assertThat(http.status("/api/items/waits")).isEqualTo(200);
        assertThat(http.status("/api/items/waits")).isEqualTo(200);
        long started = System.nanoTime();
        HttpResponse<String> waited = http.get("/api/items/waits");
        long millis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - started);
        // the next permit comes within 5 s, well within max-wait: the request's own thread waits for it
        assertThat(waited.statusCode()).as(describe(waited)).isEqualTo(200);
        assertThat(waited.body()).isEqualTo("item waits");
        assertThat(millis).as("waited for the permit").isGreaterThan(500);
        assertThat(attribute("waits", "Waited")).isEqualTo(1);
        assertThat(attribute("waits", "WaitRefused")).isZero();
    }

    @Test
    void http2StreamsAreLimitedAndHoldTheirPermitsLikeHttp1Requests() throws Exception {
        HttpClient h2 = HttpClient.newBuilder().version(HttpClient.Version.HTTP_2)
                .connectTimeout(Duration.ofSeconds(20)).build();
        // the first request upgrades the connection (h2c); the later ones are HTTP/2 streams
        List<HttpResponse<String>> responses = new ArrayList<>();
        for (int i = 0; i < 4; i++) {
            responses.add(h2.send(h2Request("/api/items/h2"), HttpResponse.BodyHandlers.ofString()));
        }
        assertThat(responses.get(3).version()).as("HTTP/2 after the upgrade").isEqualTo(HttpClient.Version.HTTP_2);
        assertThat(responses.get(0).body()).isEqualTo("item h2");
        assertThat(responses.get(1).body()).isEqualTo("item h2");
        assertRejected(responses.get(2), "h2", 3600);
        assertRejected(responses.get(3), "h2", 3600);

        // three streams on the connection at once under a concurrency limit of 2: two reach the gate, one is 429
        List<CompletableFuture<HttpResponse<String>>> held = new ArrayList<>();
        try {
            for (int i = 0; i < 3; i++) {
                held.add(h2.sendAsync(h2Request("/h2/hold/x?gate=over-h2"), HttpResponse.BodyHandlers.ofString()));
            }
            await("a stream answered").atMost(TIMEOUT).pollInterval(POLL)
                    .until(() -> held.stream().anyMatch(CompletableFuture::isDone));
            await("two streams at the gate").atMost(TIMEOUT).pollInterval(POLL)
                    .until(() -> http.number("/app/gate?name=over-h2") >= 2);
            assertThat(http.number("/app/gate?name=over-h2")).as("streams admitted at once").isEqualTo(2);
            HttpResponse<String> rejected = held.stream().filter(CompletableFuture::isDone).findFirst().get().join();
            assertThat(rejected.version()).isEqualTo(HttpClient.Version.HTTP_2);
            assertRejected(rejected, "h2-held", Long.MAX_VALUE);
            assertThat(remaining("h2-held")).isZero();
        } finally {
            http.get("/app/release?name=over-h2");
        }
        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : held) {
            statuses.add(response.orTimeout(90, TimeUnit.SECONDS).join().statusCode());
        }
        assertThat(statuses).containsExactlyInAnyOrder(200, 200, 429);
        awaitPermits("h2-held", 2);
    }

    @Test
    void aClientThatHangsUpMidRequestGivesItsPermitBackOnceWhenItsHandlerEnds() throws Exception {
        for (int round = 0; round < 3; round++) {
            String gate = "gone-" + round;
            try {
                try (Socket first = openRequest("/hold/x?gate=" + gate);
                        Socket second = openRequest("/hold/x?gate=" + gate)) {
                    await("both held").atMost(TIMEOUT).pollInterval(POLL)
                            .until(() -> http.number("/app/gate?name=" + gate) == 2);
                    assertThat(remaining("held")).isZero();
                    assertRejected(http.get("/hold/x?gate=refused"), "held", Long.MAX_VALUE);
                }
                // both clients are gone; their handlers still block at the gate and still hold the permits (the
                // handler is what the limit protects: Helidon does not stop it when its client leaves)
                Thread.sleep(500);
                assertThat(remaining("held")).as("permits while the handlers of gone clients run").isZero();
            } finally {
                http.get("/app/release?name=" + gate);
            }
            // the handlers answer their closed connections and return: each permit comes back once
            awaitPermits("held", 2);
        }
        // no permit was released twice: the limit still holds exactly 2
        assertConcurrencyLimit("after-gone", 4, 2);
        assertThat(attribute("held", "Errors")).isZero();
    }

    private HttpRequest h2Request(String pathAndQuery) {
        return HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.port() + pathAndQuery))
                .timeout(Duration.ofSeconds(90)).GET().build();
    }

    /** A raw HTTP/1.1 GET whose response the caller never reads: closing the socket hangs up mid-request. */
    private Socket openRequest(String pathAndQuery) throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** One HTTP/1.1 response with a {@code Content-Length} body, read from {@code socket}: head and body. */
    private static String readResponse(Socket socket) {
        try {
            InputStream in = socket.getInputStream();
            StringBuilder head = new StringBuilder();
            while (head.indexOf("\r\n\r\n") < 0) {
                int b = in.read();
                if (b < 0) {
                    throw new IOException("connection closed after: " + head);
                }
                head.append((char) b);
            }
            Matcher length = Pattern.compile("(?i)content-length:\\s*(\\d+)").matcher(head);
            assertThat(length.find()).as("Content-Length in %s", head).isTrue();
            byte[] body = in.readNBytes(Integer.parseInt(length.group(1)));
            return head + new String(body, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
