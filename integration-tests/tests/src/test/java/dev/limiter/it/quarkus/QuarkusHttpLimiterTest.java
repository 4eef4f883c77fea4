package dev.limiter.it.quarkus;

import static dev.limiter.it.ScenarioContract.assertRateLimitHeaders;
import static dev.limiter.it.ScenarioContract.assertRejected;
import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static dev.limiter.it.harness.RateLimitHeaders.policy;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.ScenarioContract;
import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.harness.WindowGuard;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code http:} rules on Quarkus (Vert.x Web, JVM mode), in one real server started as
 * {@code java -jar quarkus-run.jar} with the built agent jar: the servlet and WebFlux matrices' HTTP contract
 * (exact 429 counts, the same headers and body, every key kind, {@code ip} behind trusted proxies, dry-run, reloads
 * both ways, JMX counts), {@code concurrency} permits given back when the response ends, when the handler fails and
 * when the client hangs up mid-request (before the blocked handler ends), never twice; a waiting rule never parks
 * the event loop; and a path under both an {@code http:} and a {@code jaxrs:} rule is counted by each. One JVM
 * serves every scenario; each owns a rule and a path ({@link QuarkusHttpScenarioRules}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuarkusHttpLimiterTest {

    /** What docs/agent.md tells Quarkus users to pass: the agent and Quarkus then log through one manager. */
    private static final String JBOSS_LOG_MANAGER = "-Djava.util.logging.manager=org.jboss.logmanager.LogManager";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private QuarkusHttpScenarioRules current;
    private ForkedServer server;
    private HttpApi http;
    private String jmxMarker;
    private AttachedJmx jmx;

    @BeforeAll
    void startServer() {
        rules = RulesFile.create("rules.yml");
        current = QuarkusHttpScenarioRules.initial();
        rules.write(current.render(rules.nextVersion()));
        jmxMarker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(TestApp.QUARKUS_REST, getClass().getSimpleName() + "-server",
                List.of(AttachedJmx.markerOption(jmxMarker), JBOSS_LOG_MANAGER, Agent.option(rules.path()))));
        http = server.http();
    }

    @AfterAll
    void stopServer() {
        if (jmx != null) {
            jmx.close();
        }
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    @Test
    void startupBannerNamesTheRulesFileAndTheRuleCount() {
        server.awaitOutput("limiter \\S+ started: rules \\S*rules\\.yml, " + QuarkusHttpScenarioRules.RULE_COUNT
                + " rules", Duration.ofSeconds(10));
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
    void fixedWindowAdmitsExactlyTheLimitThenRejectsWithoutRunningTheHandler() {
        WindowGuard.awaitRoomInWindow(Duration.ofMinutes(1), Duration.ofSeconds(20));
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = http.get("/api/items/exact");
            long now = System.currentTimeMillis() / 1000;
            assertThat(response.statusCode()).as(describe(response)).isEqualTo(200);
            assertThat(response.body()).isEqualTo("item exact");
            assertRateLimitHeaders(response, "exact", 5, 60, 4 - i, now);
        }
        long handled = http.number("/app/handled");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = http.get("/api/items/exact");
            long now = System.currentTimeMillis() / 1000;
            assertRejected(response, "exact", 60);
            assertRateLimitHeaders(response, "exact", 5, 60, 0, now);
        }
        assertThat(http.number("/app/handled")).as("handlers run for 3 rejected requests").isEqualTo(handled);
    }

    @Test
    void dryRunNeverRejectsButCountsWouldReject() {
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> response = http.get("/api/items/dry");
            assertThat(response.statusCode()).as("request %d past a dry-run limit of 2: %s", i + 1, describe(response))
                    .isEqualTo(200);
            assertThat(response.body()).isEqualTo("item dry");
        }
        assertThat(attribute("dry", "WouldReject")).isEqualTo(4);
        assertThat(attribute("dry", "Rejected")).isZero();
        // switched to enforce, the same budget is already spent
        apply(current.withDryMode("enforce"));
        assertRejected(http.get("/api/items/dry"), "dry", 3600);
    }

    @Test
    void jmxCountsWhatHttpSaw() {
        int ok = 0;
        int rejected = 0;
        for (int i = 0; i < 7; i++) {
            int status = http.status("/api/items/counted");
            if (status == 200) {
                ok++;
            } else if (status == 429) {
                rejected++;
            }
        }
        assertThat(ok).isEqualTo(3);
        assertThat(rejected).isEqualTo(4);
        assertThat(attribute("counted", "Allowed")).isEqualTo(ok);
        assertThat(attribute("counted", "Rejected")).isEqualTo(rejected);
    }

    @Test
    void forwardedForIsIgnoredFromUntrustedPeersAndHonouredFromTrustedOnes() {
        assertThat(http.status("/api/items/xff-untrusted", "X-Forwarded-For", "1.1.1.1")).isEqualTo(200);
        assertThat(http.status("/api/items/xff-untrusted", "X-Forwarded-For", "2.2.2.2")).isEqualTo(200);
        assertRejected(http.get("/api/items/xff-untrusted", "X-Forwarded-For", "3.3.3.3"), "xff-untrusted", 3600);
        assertRejected(http.get("/api/items/xff-untrusted", "Forwarded", "for=4.4.4.4"), "xff-untrusted", 3600);

        apply(current.trusting("127.0.0.1/32"));
        String path = "/api/items/xff-trusted";
        assertThat(http.status(path, "X-Forwarded-For", "1.1.1.1")).isEqualTo(200);
        assertThat(http.status(path, "X-Forwarded-For", "1.1.1.1")).isEqualTo(200);
        assertRejected(http.get(path, "X-Forwarded-For", "1.1.1.1"), "xff-trusted", 3600);
        assertThat(http.status(path, "X-Forwarded-For", "2.2.2.2")).as("another client").isEqualTo(200);
        assertThat(http.status(path, "X-Forwarded-For", "1.1.1.1, 7.7.7.7")).isEqualTo(200);
        assertThat(http.status(path, "X-Forwarded-For", "7.7.7.7, 127.0.0.1")).isEqualTo(200);
        assertRejected(http.get(path, "X-Forwarded-For", "7.7.7.7"), "xff-trusted", 3600);
        assertThat(http.status(path)).as("no header: the peer itself").isEqualTo(200);
    }

    @Test
    void keysFromAHeaderAQueryParameterAPathParameterAndGlobal() {
        assertThat(http.status("/api/items/by-header", "X-Api-Key", "alice")).isEqualTo(200);
        assertRejected(http.get("/api/items/by-header", "X-Api-Key", "alice"), "by-header", 3600);
        assertThat(http.status("/api/items/by-header", "X-Api-Key", "bob")).as("another key").isEqualTo(200);
        // a segment parameter or a dot segment is no way around a rule
        assertRejected(http.get("/api/items/by-header;v=2", "X-Api-Key", "bob"), "by-header", 3600);
        assertRejected(http.get("/api/items/x/../by-header", "X-Api-Key", "bob"), "by-header", 3600);

        assertThat(http.status("/api/items/by-param?user=alice")).isEqualTo(200);
        assertRejected(http.get("/api/items/by-param?user=alice&other=1"), "by-param", 3600);
        assertThat(http.status("/api/items/by-param?user=bob")).as("another key").isEqualTo(200);

        HttpResponse<String> alice = http.get("/api/users/alice");
        assertThat(alice.statusCode()).as(describe(alice)).isEqualTo(200);
        assertThat(alice.body()).isEqualTo("user alice");
        assertRejected(http.get("/api/users/alice"), "by-path-param", 3600);
        assertThat(http.status("/api/users/bob")).as("another key").isEqualTo(200);

        assertThat(http.status("/api/hello", "X-Api-Key", "alice")).isEqualTo(200);
        assertThat(http.status("/api/hello", "X-Api-Key", "bob")).isEqualTo(200);
        assertRejected(http.get("/api/hello", "X-Api-Key", "carol"), "global", 3600);
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
    void principalIsAMissingKeySoOnErrorDecides() {
        // no user is authenticated before routing: on-error reject fails closed, the default allow opens
        assertRejected(http.get("/api/items/principal"), "by-principal", 1);
        for (int i = 0; i < 3; i++) {
            assertThat(http.status("/api/items/principal-open")).as("on-error: allow").isEqualTo(200);
        }
        assertThat(attribute("by-principal-open", "Errors")).isEqualTo(3);
    }

    @Test
    void aLiveReloadRaisesAndLowersTheLimit() {
        assertThat(http.status("/api/items/reload")).isEqualTo(200);
        assertThat(http.status("/api/items/reload")).isEqualTo(200);
        assertRejected(http.get("/api/items/reload"), "reload", 3600);

        apply(current.withReloadLimit(50));
        HttpResponse<String> response = http.get("/api/items/reload");
        assertThat(response.statusCode()).as(describe(response)).isEqualTo(200);
        assertThat(policy(response)).isEqualTo("\"reload\";q=50;w=3600");

        apply(current.withReloadLimit(1));
        HttpResponse<String> lowered = http.get("/api/items/reload");
        assertRejected(lowered, "reload", 3600);
        assertThat(policy(lowered)).isEqualTo("\"reload\";q=1;w=3600");
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
    void concurrencyRejectsExactlyTheExcessAndPermitsComeBackOnCompleteAndOnError() {
        assertConcurrencyLimit("h1", 5, 2);
        assertConcurrencyLimit("h2", 2, 2);

        // a handler that throws gives its permit back: five failures in a row, none rejected. The permit comes
        // back when the response has ended, so the client may see the 500 a moment before: each round waits
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> failed = http.get("/fail/boom");
            assertThat(failed.statusCode()).as("failing request %d: %s", i + 1, describe(failed)).isEqualTo(500);
            awaitPermits("failing", 1);
        }
        assertThat(attribute("failing", "Rejected")).isZero();
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

    // ---- helpers

    private void apply(QuarkusHttpScenarioRules next) {
        int version = rules.nextVersion();
        rules.write(next.render(version));
        await("rules version " + version + " is live").atMost(TIMEOUT).pollInterval(POLL)
                .until(() -> http.status(ScenarioContract.markerPath(version)) == 429);
        current = next;
    }

    /** {@code parallel} requests held at a gate: exactly {@code limit} reach it, the rest are rejected at once. */
    private void assertConcurrencyLimit(String gate, int parallel, int limit) {
        ScenarioContract.assertConcurrencyLimit(http, "/hold/x", gate, parallel, limit,
                rejected -> assertRejected(rejected, "held", Long.MAX_VALUE));
        awaitPermits("held", limit);
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

    private void awaitPermits(String rule, long limit) {
        await("all " + limit + " permits of " + rule + " back").atMost(TIMEOUT).pollInterval(POLL)
                .ignoreExceptions() // the MBeans register a moment after the first request
                .until(() -> remaining(rule) == limit);
    }

    private long remaining(String rule) throws Exception {
        return (Long) jmx().connection().invoke(ruleName(rule), "remaining", new Object[] {""},
                new String[] {String.class.getName()});
    }

    private long attribute(String rule, String attribute) {
        long[] value = new long[1];
        await(rule + "." + attribute + " readable").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions()
                .until(() -> {
                    value[0] = ((Number) jmx().connection().getAttribute(ruleName(rule), attribute)).longValue();
                    return true;
                });
        return value[0];
    }

    private AttachedJmx jmx() {
        if (jmx == null) {
            jmx = AttachedJmx.attach(jmxMarker);
        }
        return jmx;
    }

    private static ObjectName ruleName(String rule) {
        try {
            return new ObjectName("dev.limiter:type=Rule,name=" + rule);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(rule, e);
        }
    }
}
