package dev.limiter.it.quarkus;

import static dev.limiter.it.ScenarioContract.assertRejected;
import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.reactive.AbstractReactiveHttpLimiterTest;
import dev.limiter.it.harness.TestApp;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * {@code http:} rules on Quarkus (Vert.x Web, JVM mode), in one real server started as
 * {@code java -jar quarkus-run.jar} with the built agent jar: the reactive HTTP contract
 * ({@link AbstractReactiveHttpLimiterTest}: exact 429 counts, the servlet matrix's headers and body, every key
 * kind, dry-run, reloads both ways, JMX counts, permits back on complete and on error), plus Vert.x's own:
 * spellings of a limited path, a rejected POST's connection, {@code concurrency} permits given back when the
 * client hangs up mid-request (before the blocked handler ends), never twice; a waiting rule never parks the
 * event loop; and a path under both an {@code http:} and a {@code jaxrs:} rule is counted by each.
 */
class QuarkusHttpLimiterTest extends AbstractReactiveHttpLimiterTest {

    @Override
    protected TestApp app() {
        return TestApp.QUARKUS_REST;
    }

    /**
     * Started as deployed, without {@code -Djava.util.logging.manager} on the command line (QuarkusRestLimiterTest
     * passes it): the agent names Quarkus' LogManager itself before it first logs.
     */
    @Override
    protected List<String> jvmOptions() {
        return List.of();
    }

    @Test
    void withoutTheLogManagerOnTheCommandLineTheAgentCausesNoLoggingErrorOrWarning() {
        String banner = server.awaitOutput("limiter \\S+ started: rules", TIMEOUT);
        String output = server.output();
        assertThat(output).doesNotContain("The LogManager accessed before");
        // the banner went through Quarkus' logging (its format): JBoss' LogManager is the JVM's
        assertThat(output).containsPattern("INFO\\s+\\[dev\\.limiter\\] \\([^)]+\\) limiter \\S+ started");
        // up to the banner: the agent's start-up (later scenarios log warnings of their own on purpose)
        String startup = output.substring(0, output.indexOf(banner) + banner.length());
        assertThat(startup).doesNotContainPattern("(?m)^.*(ERROR|WARN|SEVERE).*(dev\\.limiter|limiter:).*$");
    }

    /** An {@code on-limit: wait} rule, a path for spellings of it, a POST path, one path under both kinds of rule. */
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
                  - id: both-http
                    match: { http: { path: /api/both } }
                    limit: 3
                    window: 1h
                  - id: both-jaxrs
                    match: { jaxrs: { class: %s, method: both } }
                    limit: 2
                    window: 1h
                """.formatted(QuarkusScenarioRules.RESOURCE);
    }

    @Override
    protected int stackRuleCount() {
        return 5;
    }

    @Test
    void theRouterTheHandlerChainAndTheNamedResourceAreWoven() throws Exception {
        assertThat(http.status("/app/handled")).isEqualTo(200);
        ObjectName limiter = new ObjectName("dev.limiter:type=Limiter");
        int[] woven = new int[1];
        await("the limiter MBean").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions().until(() -> {
            woven[0] = (Integer) jmx().connection().getAttribute(limiter, "WovenTypes");
            return true;
        });
        // RoutingContextImpl (http rules), AbstractResteasyReactiveContext and LimitedResource (the jaxrs rule)
        assertThat(woven[0]).isGreaterThanOrEqualTo(3);
    }

    @Test
    void aDotSegmentIsNoWayAroundARule() {
        assertThat(http.status("/api/items/by-header", "X-Api-Key", "dot")).isEqualTo(200);
        assertRejected(http.get("/api/items/x/../by-header", "X-Api-Key", "dot"), "by-header", 3600);
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
            // the budget is spent: Vert.x Web or RESTEasy Reactive may refuse a spelling (400, 404), but none may
            // reach the handler, and one that would is the rule's 429
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
    void aPathUnderAnHttpAndAJaxrsRuleIsCountedByEach() {
        List<Integer> statuses = new ArrayList<>();
        List<String> rejectedBy = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = http.get("/api/both");
            statuses.add(response.statusCode());
            if (response.statusCode() == 429) {
                rejectedBy.add(response.body().replaceAll(".*\"rule\":\"([^\"]+)\".*", "$1"));
            }
        }
        // the http rule admits 3 (limit 3), of which the jaxrs rule admits 2; the last two never reach the method
        assertThat(statuses).containsExactly(200, 200, 429, 429, 429);
        assertThat(rejectedBy).containsExactly("both-jaxrs", "both-http", "both-http");
        assertThat(attribute("both-http", "Allowed")).isEqualTo(3);
        assertThat(attribute("both-http", "Rejected")).isEqualTo(2);
        assertThat(attribute("both-jaxrs", "Allowed")).isEqualTo(2);
        assertThat(attribute("both-jaxrs", "Rejected")).isEqualTo(1);
    }

    @Test
    void aClientThatHangsUpMidRequestGivesItsPermitBackOnceWhileItsHandlerStillRuns() throws Exception {
        List<String> gates = new ArrayList<>();
        try {
            for (int round = 0; round < 5; round++) {
                String gate = "gone-" + round;
                gates.add(gate);
                try (Socket first = openRequest("/hold/x?gate=" + gate);
                        Socket second = openRequest("/hold/x?gate=" + gate)) {
                    await("both held").atMost(TIMEOUT).pollInterval(POLL)
                            .until(() -> http.number("/app/gate?name=" + gate) == 2);
                    assertThat(remaining("held")).isZero();
                    assertRejected(http.get("/hold/x?gate=refused"), "held", Long.MAX_VALUE);
                }
                // the connections are closed; the handlers still block at their gate, the permits are back
                awaitPermits("held", 2);
            }
        } finally {
            for (String gate : gates) {
                http.get("/app/release?name=" + gate);
            }
        }
        // no permit was released twice (when the blocked handlers end on their closed connections): the limit
        // still holds exactly 2
        assertConcurrencyLimit("after-gone", 4, 2);
        assertThat(attribute("held", "Errors")).isZero();
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
