package dev.limiter.it.quarkus;

import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static dev.limiter.it.harness.RateLimitHeaders.draft;
import static dev.limiter.it.harness.RateLimitHeaders.number;
import static dev.limiter.it.harness.RateLimitHeaders.policy;
import static dev.limiter.it.harness.RateLimitHeaders.retryAfter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RateLimitHeaders.Draft;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.harness.WindowGuard;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
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
 * {@code jaxrs:} rules on Quarkus REST (RESTEasy Reactive on Vert.x, no servlet API), JVM mode, in one real
 * server started as {@code java -jar quarkus-run.jar} with the built agent jar: exact 429 counts with the servlet
 * matrix's headers and body, the HTTP keys ({@code ip} with trusted proxies, {@code header:}, {@code param:}) read
 * from the Vert.x request on a worker thread and on the event loop, dry-run, reloads both ways, JMX counts, and
 * {@code concurrency} permits given back once when a client hangs up while its request is held. One JVM serves
 * every scenario; each owns a rule and a resource method ({@link QuarkusScenarioRules}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class QuarkusRestLimiterTest {

    /** What docs/agent.md tells Quarkus users to pass: the agent and Quarkus then log through one manager. */
    private static final String JBOSS_LOG_MANAGER = "-Djava.util.logging.manager=org.jboss.logmanager.LogManager";
    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Pattern BODY = Pattern.compile(
            "\\{\"type\":\"rate-limited\",\"rule\":\"([^\"]+)\",\"retry_after\":(\\d+)}");

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private QuarkusScenarioRules current;
    private ForkedServer server;
    private HttpApi http;
    private String jmxMarker;
    private AttachedJmx jmx;

    @BeforeAll
    void startServer() {
        rules = RulesFile.create("rules.yml");
        current = QuarkusScenarioRules.initial();
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
        server.awaitOutput("limiter \\S+ started: rules \\S*rules\\.yml, " + QuarkusScenarioRules.RULE_COUNT
                + " rules", Duration.ofSeconds(10));
    }

    @Test
    void withQuarkusLogManagerNamedOnTheCommandLineLoggingIsNotConfused() {
        server.awaitOutput("INFO\\s+\\[dev\\.limiter\\] \\([^)]+\\) limiter \\S+ started", Duration.ofSeconds(10));
        assertThat(server.output()).doesNotContain("The LogManager accessed before");
    }

    @Test
    void theHandlerChainAndTheNamedResourceAreWoven() throws Exception {
        assertThat(http.status("/app/handled")).isEqualTo(200);
        ObjectName limiter = new ObjectName("dev.limiter:type=Limiter");
        int[] woven = new int[1];
        await("the limiter MBean").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions().until(() -> {
            woven[0] = (Integer) jmx().connection().getAttribute(limiter, "WovenTypes");
            return true;
        });
        // AbstractResteasyReactiveContext (the handler chain) and LimitedResource (the rules' class); Quarkus
        // REST brings no servlet: Vert.x Web's RoutingContextImpl (http rules) and Quarkus' own exception
        // mappers are the only others that may be woven
        assertThat(woven[0]).isGreaterThanOrEqualTo(2);
    }

    @Test
    void fixedWindowAdmitsExactlyTheLimitThenRejectsWithoutRunningTheMethod() {
        WindowGuard.awaitRoomInWindow(Duration.ofMinutes(1), Duration.ofSeconds(20));
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = http.get("/api/exact");
            assertThat(response.statusCode()).as(describe(response)).isEqualTo(200);
            assertThat(response.body()).isEqualTo("exact");
        }
        long handled = http.number("/app/handled");
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = http.get("/api/exact");
            long now = System.currentTimeMillis() / 1000;
            assertRejected(response, "exact", 60);
            assertRateLimitHeaders(response, "exact", 5, 60, 0, now);
        }
        assertThat(http.number("/app/handled")).as("resource methods run for 3 rejected requests")
                .isEqualTo(handled);
    }

    @Test
    void dryRunNeverRejectsButCountsWouldReject() {
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> response = http.get("/api/dry");
            assertThat(response.statusCode()).as("request %d past a dry-run limit of 2: %s", i + 1, describe(response))
                    .isEqualTo(200);
        }
        assertThat(attribute("dry", "WouldReject")).isEqualTo(4);
        assertThat(attribute("dry", "Rejected")).isZero();
        // switched to enforce, the same budget is already spent
        apply(current.withDryMode("enforce"));
        assertRejected(http.get("/api/dry"), "dry", 3600);
    }

    @Test
    void jmxCountsWhatHttpSaw() {
        int ok = 0;
        int rejected = 0;
        for (int i = 0; i < 7; i++) {
            int status = http.status("/api/counted");
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
        assertThat(attribute("counted", "Errors")).isZero();
    }

    @Test
    void ipKeyIsThePeerAndForwardedForCountsOnlyFromTrustedProxies() {
        // the peer (127.0.0.1) is not trusted: its forwarding headers are ignored
        assertThat(http.status("/api/by-ip", "X-Forwarded-For", "1.1.1.1")).isEqualTo(200);
        assertThat(http.status("/api/by-ip", "X-Forwarded-For", "2.2.2.2")).isEqualTo(200);
        assertRejected(http.get("/api/by-ip", "X-Forwarded-For", "3.3.3.3"), "by-ip", 3600);
        awaitRemaining("by-ip", "127.0.0.1", 0);

        apply(current.trusting("127.0.0.1/32"));
        assertThat(http.status("/api/by-ip", "X-Forwarded-For", "1.1.1.1")).isEqualTo(200);
        assertThat(http.status("/api/by-ip", "X-Forwarded-For", "1.1.1.1")).isEqualTo(200);
        assertRejected(http.get("/api/by-ip", "X-Forwarded-For", "1.1.1.1"), "by-ip", 3600);
        assertThat(http.status("/api/by-ip", "X-Forwarded-For", "2.2.2.2")).as("another client").isEqualTo(200);
        awaitRemaining("by-ip", "2.2.2.2", 1);
        assertThat(attribute("by-ip", "Errors")).isZero();
    }

    @Test
    void headerAndQueryParameterKeysOnAWorkerThread() {
        assertThat(http.status("/api/by-header", "X-Api-Key", "alice")).isEqualTo(200);
        assertRejected(http.get("/api/by-header", "X-Api-Key", "alice"), "by-header", 3600);
        assertThat(http.status("/api/by-header", "X-Api-Key", "bob")).as("another key").isEqualTo(200);
        assertThat(http.status("/api/by-header")).as("no header: the shared missing key").isEqualTo(200);
        assertRejected(http.get("/api/by-header"), "by-header", 3600);

        HttpResponse<String> alice = http.get("/api/by-param?user=alice");
        assertThat(alice.statusCode()).as(describe(alice)).isEqualTo(200);
        assertThat(alice.body()).isEqualTo("by-param alice");
        assertRejected(http.get("/api/by-param?other=1&user=alice"), "by-param", 3600);
        assertThat(http.status("/api/by-param?user=bob")).as("another key").isEqualTo(200);
        assertThat(attribute("by-header", "Errors")).isZero();
        assertThat(attribute("by-param", "Errors")).isZero();
    }

    /** Quarkus REST binds a path parameter by name, without {@code @PathParam}: it is a path parameter too. */
    @Test
    void aPathParameterBoundByNameIsAKey() {
        HttpResponse<String> alice = http.get("/api/greet/alice");
        assertThat(alice.statusCode()).as(describe(alice)).isEqualTo(200);
        assertThat(alice.body()).isEqualTo("greet alice");
        assertRejected(http.get("/api/greet/alice"), "by-name", 3600);
        assertThat(http.status("/api/greet/bob")).as("another key").isEqualTo(200);
        assertThat(attribute("by-name", "Errors")).isZero();
        assertThat(server.output()).doesNotContain("rule by-name keys on");
    }

    @Test
    void aResourceOnTheEventLoopIsKeyedAndRejectedThere() {
        HttpResponse<String> first = http.get("/api/fast", "X-Api-Key", "carol");
        assertThat(first.statusCode()).as(describe(first)).isEqualTo(200);
        assertThat(first.body()).as("a @NonBlocking method runs on the event loop")
                .startsWith("fast on vert.x-eventloop");
        assertRejected(http.get("/api/fast", "X-Api-Key", "carol"), "on-event-loop", 3600);
        assertThat(http.status("/api/fast", "X-Api-Key", "dave")).as("another key").isEqualTo(200);
        assertThat(attribute("on-event-loop", "Rejected")).isEqualTo(1);
        assertThat(attribute("on-event-loop", "Errors")).isZero();
    }

    @Test
    void principalIsAMissingKeySoOnErrorDecides() {
        // Quarkus REST has no servlet principal: on-error reject fails closed
        assertRejected(http.get("/api/principal"), "by-principal", 1);
        assertThat(attribute("by-principal", "Errors")).isEqualTo(1);
    }

    @Test
    void aLiveReloadRaisesAndLowersTheLimit() {
        assertThat(http.status("/api/reload")).isEqualTo(200);
        assertThat(http.status("/api/reload")).isEqualTo(200);
        assertRejected(http.get("/api/reload"), "reload", 3600);

        apply(current.withReloadLimit(50));
        HttpResponse<String> raised = http.get("/api/reload");
        assertThat(raised.statusCode()).as(describe(raised)).isEqualTo(200);
        assertThat(http.status("/api/reload")).isEqualTo(200);

        apply(current.withReloadLimit(1));
        HttpResponse<String> lowered = http.get("/api/reload");
        assertRejected(lowered, "reload", 3600);
        assertThat(policy(lowered)).isEqualTo("\"reload\";q=1;w=3600");
    }

    @Test
    void concurrencyRejectsExactlyTheExcessAndAClientThatHangsUpGivesItsPermitBackOnce() throws Exception {
        assertConcurrencyLimit("c1", 5, 2);

        // two clients hang up while their requests are held: each permit comes back once, when the method ends
        try (Socket first = openRequest("/api/hold?gate=gone");
                Socket second = openRequest("/api/hold?gate=gone")) {
            await("both held").atMost(TIMEOUT).pollInterval(POLL).until(() -> http.number("/app/gate?name=gone") == 2);
            awaitRemaining("held", "", 0);
            assertRejected(http.get("/api/hold?gate=refused"), "held", Long.MAX_VALUE);
        }
        http.get("/app/release?name=gone");
        awaitPermits("held", 2);

        // none was released twice: the limit still holds exactly 2
        assertConcurrencyLimit("c2", 4, 2);
        assertThat(attribute("held", "Errors")).isZero();
    }

    // ---- helpers

    /** Writes {@code next} and waits until the limiter MBean lists its marker rule. */
    private void apply(QuarkusScenarioRules next) {
        int version = rules.nextVersion();
        rules.write(next.render(version));
        ObjectName limiter = objectName("dev.limiter:type=Limiter");
        await("rules version " + version + " is live").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions()
                .until(() -> Arrays.asList((String[]) jmx().connection().getAttribute(limiter, "RuleIds"))
                        .contains("rules-v" + version));
        current = next;
    }

    /** {@code parallel} requests held at a gate: exactly {@code limit} reach it, the rest are rejected at once. */
    private void assertConcurrencyLimit(String gate, int parallel, int limit) {
        List<CompletableFuture<HttpResponse<String>>> responses = new ArrayList<>();
        for (int i = 0; i < parallel; i++) {
            responses.add(http.getAsync("/api/hold?gate=" + gate));
        }
        String arrivals = "/app/gate?name=" + gate;
        try {
            await(parallel + " held requests admitted or rejected").atMost(TIMEOUT).pollInterval(POLL)
                    .until(() -> http.number(arrivals) > limit
                            || http.number(arrivals) + completed(responses).size() == parallel);
            assertThat(http.number(arrivals)).as("requests admitted at once, concurrency limit %d", limit)
                    .isEqualTo(limit);
            for (HttpResponse<String> rejected : completed(responses)) {
                assertRejected(rejected, "held", Long.MAX_VALUE);
            }
        } finally {
            http.get("/app/release?name=" + gate);
        }
        List<Integer> expected = new ArrayList<>();
        for (int i = 0; i < parallel; i++) {
            expected.add(i < limit ? 200 : 429);
        }
        List<Integer> statuses = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            statuses.add(response.orTimeout(90, TimeUnit.SECONDS).join().statusCode());
        }
        assertThat(statuses).containsExactlyInAnyOrderElementsOf(expected);
        awaitPermits("held", limit);
    }

    private static List<HttpResponse<String>> completed(List<CompletableFuture<HttpResponse<String>>> responses) {
        List<HttpResponse<String>> done = new ArrayList<>();
        for (CompletableFuture<HttpResponse<String>> response : responses) {
            if (response.isDone()) {
                done.add(response.join());
            }
        }
        return done;
    }

    /** A raw HTTP/1.1 GET whose response the caller never reads: closing the socket hangs up mid-request. */
    private Socket openRequest(String pathAndQuery) throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n").getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    private void awaitPermits(String rule, long limit) {
        await("all " + limit + " permits of " + rule + " back").atMost(TIMEOUT).pollInterval(POLL)
                .ignoreExceptions() // the MBeans register a moment after the first request
                .until(() -> remaining(rule, "") == limit);
    }

    /** Waits for the MBean (registered a moment after the first request), then holds it to {@code expected}. */
    private void awaitRemaining(String rule, String key, long expected) {
        long[] value = new long[1];
        await(rule + " remaining for '" + key + "' readable").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions()
                .until(() -> {
                    value[0] = remaining(rule, key);
                    return true;
                });
        assertThat(value[0]).as("%s remaining for '%s'", rule, key).isEqualTo(expected);
    }

    private long remaining(String rule, String key) throws Exception {
        return (Long) jmx().connection().invoke(objectName("dev.limiter:type=Rule,name=" + rule), "remaining",
                new Object[] {key}, new String[] {String.class.getName()});
    }

    private long attribute(String rule, String attribute) {
        long[] value = new long[1];
        await(rule + "." + attribute + " readable").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions()
                .until(() -> {
                    value[0] = ((Number) jmx().connection().getAttribute(
                            objectName("dev.limiter:type=Rule,name=" + rule), attribute)).longValue();
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

    private static ObjectName objectName(String name) {
        try {
            return new ObjectName(name);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(name, e);
        }
    }

    /** 429, Retry-After in [1, maxRetryAfter], the configured body and content type: as on servlets. */
    private static void assertRejected(HttpResponse<String> response, String rule, long maxRetryAfter) {
        assertThat(response.statusCode()).as(describe(response)).isEqualTo(429);
        long retryAfter = retryAfter(response);
        assertThat(retryAfter).as(describe(response)).isBetween(1L, maxRetryAfter);
        assertThat(response.headers().firstValue("Content-Type")).as(describe(response))
                .hasValueSatisfying(type -> assertThat(type).startsWith(QuarkusScenarioRules.RESPONSE_CONTENT_TYPE));
        Matcher body = BODY.matcher(response.body());
        assertThat(body.matches()).as("configured body: %s", describe(response)).isTrue();
        assertThat(body.group(1)).isEqualTo(rule);
        assertThat(Long.parseLong(body.group(2))).isBetween(1L, maxRetryAfter);
    }

    /** Draft and legacy headers ({@code headers: both}) describing {@code rule}, read at epoch second {@code now}. */
    private static void assertRateLimitHeaders(HttpResponse<String> response, String rule, long limit,
            long windowSeconds, long remaining, long now) {
        assertThat(policy(response)).as(describe(response))
                .isEqualTo("\"" + rule + "\";q=" + limit + ";w=" + windowSeconds);
        Draft draft = draft(response);
        assertThat(draft.rule()).isEqualTo(rule);
        assertThat(draft.remaining()).as(describe(response)).isEqualTo(remaining);
        assertThat(draft.resetSeconds()).as(describe(response)).isBetween(0L, windowSeconds);
        assertThat(number(response, "X-RateLimit-Limit")).isEqualTo(limit);
        assertThat(number(response, "X-RateLimit-Remaining")).isEqualTo(remaining);
        assertThat(number(response, "X-RateLimit-Reset")).as(describe(response))
                .isBetween(now - 2, now + windowSeconds + 2);
    }
}
