package dev.limiter.it.micronaut;

import static dev.limiter.it.ScenarioContract.assertRejected;
import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.TestApp;
import dev.limiter.it.reactive.AbstractReactiveHttpLimiterTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * {@code http:} rules on Micronaut 4 (its Netty HTTP server, no servlet API), in one real server with the built
 * agent jar: the reactive HTTP contract ({@link AbstractReactiveHttpLimiterTest}: exact 429 counts, the servlet
 * matrix's headers and body, every key kind, dry-run, reloads both ways, JMX counts, permits back on complete and
 * on error), plus Micronaut's own: only its request lifecycle is woven; spellings of a limited path; a rejected
 * POST's connection; a waiting rule never parks the event loop; and where a {@code concurrency} permit goes back
 * when the client hangs up: at once mid-stream (Micronaut cancels the stream), and, mid-request, when the route
 * answers (Micronaut keeps the request until then; its handler still runs), never twice.
 */
class Micronaut4LimiterTest extends AbstractReactiveHttpLimiterTest {

    @Override
    protected TestApp app() {
        return TestApp.MICRONAUT4;
    }

    /** An {@code on-limit: wait} rule, a path for spellings of it, a POST path, a streamed path. */
    @Override
    protected String stackRules() {
        return """
                  - id: loop-waits
                    match: { http: { path: /api/items/waits } }
                    strategy: token-bucket
                    limit: 2
                    window: 10s         # a burst of 2, then one permit every 5 s: a wait would fit in max-wait
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
                  - id: streams
                    match: { http: { path: /stream/** } }
                    strategy: concurrency
                    limit: 2
                """;
    }

    @Override
    protected int stackRuleCount() {
        return 4;
    }

    @Test
    void onlyTheRequestLifecycleIsWoven() throws Exception {
        assertThat(http.status("/api/items/woven")).isEqualTo(200);
        ObjectName limiter = new ObjectName("dev.limiter:type=Limiter");
        int[] woven = new int[1];
        await("the limiter MBean").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions().until(() -> {
            woven[0] = (Integer) jmx().connection().getAttribute(limiter, "WovenTypes");
            return true;
        });
        // RequestLifecycle; no servlet or mapper exists here, and the rules name no classes
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
            // the budget is spent: Micronaut may refuse a spelling (400, 404), but none may reach the handler
            // (its router decodes path variables: /api/items/%73ecret is item "secret"), and one that would is
            // the rule's 429
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
        assertThat(http.status("/api/items/posted")).isEqualTo(200);
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
    void aWaitingRuleRejectsAtOnceOnTheEventLoop() {
        assertThat(http.status("/api/items/waits")).isEqualTo(200);
        assertThat(http.status("/api/items/waits")).isEqualTo(200);
        // the next permit comes in 5 s, well within max-wait: a parked event loop would answer 200 then
        assertRejected(http.get("/api/items/waits"), "loop-waits", 30);
        assertThat(attribute("loop-waits", "WaitRefused")).isEqualTo(1);
        assertThat(attribute("loop-waits", "Waited")).isZero();
    }

    @Test
    void aClientThatDisconnectsMidStreamGivesItsPermitBackOnce() {
        // twenty clients read the first event of a long stream and hang up: Micronaut cancels each stream, and
        // each gives its permit back once
        for (int i = 0; i < 20; i++) {
            try (Socket client = openRequest("/stream/cut?n=1000&ms=50")) {
                assertThat(readUntil(client, "tick 0")).as("stream %d", i).contains("200");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            awaitPermits("streams", 2);
        }

        // no permit was released twice: the limit still holds exactly 2 streams
        try (Socket first = openRequest("/stream/one?n=1000&ms=50");
                Socket second = openRequest("/stream/two?n=1000&ms=50")) {
            assertThat(readUntil(first, "tick 0")).contains("200");
            assertThat(readUntil(second, "tick 0")).contains("200");
            assertThat(remaining("streams")).isZero();
            assertRejected(http.get("/stream/three?n=1&ms=1"), "streams", Long.MAX_VALUE);
        } catch (Exception e) {
            throw new AssertionError(e);
        }
        awaitPermits("streams", 2);
        HttpResponse<String> next = http.get("/stream/next?n=2&ms=1");
        assertThat(next.statusCode()).as(describe(next)).isEqualTo(200);
        assertThat(next.body()).contains("tick 1");
        awaitPermits("streams", 2);
        assertThat(attribute("streams", "Errors")).isZero();
    }

    @Test
    void aClientThatHangsUpMidRequestHoldsItsPermitUntilTheRouteAnswersThenGivesItBackOnce() throws Exception {
        List<String> gates = new ArrayList<>();
        try {
            for (int round = 0; round < 3; round++) {
                String gate = "gone-" + round;
                gates.add(gate);
                try (Socket first = openRequest("/hold/x?gate=" + gate);
                        Socket second = openRequest("/hold/x?gate=" + gate)) {
                    await("both held").atMost(TIMEOUT).pollInterval(POLL)
                            .until(() -> http.number("/app/gate?name=" + gate) == 2);
                    assertThat(remaining("held")).isZero();
                }
                // the connections are closed, the routes still wait at their gate: Micronaut keeps both requests
                // until they answer, and so do their permits (the limit bounds the handlers still running)
                await("permits held while the routes run").during(Duration.ofSeconds(1)).atMost(TIMEOUT)
                        .pollInterval(POLL).until(() -> remaining("held") == 0);
                assertRejected(http.get("/hold/x?gate=refused-" + round), "held", Long.MAX_VALUE);
                // the routes answer to nobody: the responses are dropped, the requests released, the permits back
                http.get("/app/release?name=" + gate);
                awaitPermits("held", 2);
            }
        } finally {
            for (String gate : gates) {
                http.get("/app/release?name=" + gate);
            }
        }
        // no permit was released twice: the limit still holds exactly 2
        assertConcurrencyLimit("after-gone", 4, 2);
        assertThat(attribute("held", "Errors")).isZero();
    }

    /** A raw HTTP/1.1 GET whose response the caller reads a little of, or none; closing the socket hangs up. */
    private Socket openRequest(String pathAndQuery) throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(20_000);
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** What the socket gave until {@code marker} was in it (the status line first). */
    private static String readUntil(Socket socket, String marker) {
        StringBuilder seen = new StringBuilder();
        byte[] buffer = new byte[512];
        try {
            InputStream in = socket.getInputStream();
            while (seen.indexOf(marker) < 0) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                seen.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading until " + marker + " after: " + seen, e);
        }
        assertThat(seen.toString()).as("stream").contains(marker);
        return seen.toString();
    }

    /** One HTTP/1.1 response with a {@code Content-Length} body, read from {@code socket}: head and body. */
    private static String readResponse(Socket socket) throws IOException {
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
    }
}
