package dev.limiter.it;

import static dev.limiter.it.ScenarioContract.assertRateLimitHeaders;
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
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.function.BiFunction;
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
 * The HTTP contract of the agent (docs/rules.md, docs/agent.md), run against one real server per subclass. One server JVM with the
 * agent serves all scenarios of a class (start-up is the cost): each scenario owns a rule id and a path in
 * {@link ScenarioRules}, and reload scenarios rewrite the whole file and wait for its marker rule. Start-up
 * behaviour (invalid rules, {@code strict=true}) needs JVMs of its own. Everything that waits uses Awaitility with
 * generous timeouts: the machine has 2 shared cores.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractLimiterServerTest {

    private static final Duration RELOAD_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);
    private static final Pattern RUNTIME = Pattern.compile("java=(\\d+) thread=(virtual|platform)");
    private static final int VIRTUAL_THREADS_SINCE = 21;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ScenarioRules current;
    private ForkedServer server;
    private HttpApi http;
    private String jmxMarker;
    private AttachedJmx jmx;

    /** The server under test. */
    protected abstract TestApp app();

    /**
     * Whether the server's launcher serves requests on virtual threads when the JVM has them (Java 21+): then the
     * Java 25 pass runs every scenario of the class on virtual threads.
     */
    protected abstract boolean servesOnVirtualThreads();

    @BeforeAll
    void startServer() {
        rules = RulesFile.create("rules.yml");
        current = ScenarioRules.initial();
        rules.write(current.render(rules.nextVersion()));
        jmxMarker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(app(), logName("server"),
                List.of(AttachedJmx.markerOption(jmxMarker), Agent.option(rules.path()))));
        http = server.http();
    }

    /** The server every scenario of the class shares (started in {@code @BeforeAll}). */
    protected final ForkedServer server() {
        return server;
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
        server.awaitOutput("limiter \\S+ started: rules \\S*rules\\.yml, 17 rules", Duration.ofSeconds(10));
    }

    @Test
    void requestsRunOnVirtualThreadsFromJava21WhereTheServerCan() {
        HttpResponse<String> response = http.get("/app/runtime");
        Matcher runtime = RUNTIME.matcher(response.body());
        assertThat(runtime.matches()).as(describe(response)).isTrue();
        boolean virtual = servesOnVirtualThreads() && Integer.parseInt(runtime.group(1)) >= VIRTUAL_THREADS_SINCE;
        assertThat(runtime.group(2)).as(response.body()).isEqualTo(virtual ? "virtual" : "platform");
    }

    @Test
    void fixedWindowAdmitsExactlyTheLimitThenRejectsWithHeadersAndTheConfiguredBody() {
        WindowGuard.awaitRoomInWindow(Duration.ofMinutes(1), Duration.ofSeconds(20));
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = http.get("/api/items/exact");
            long now = System.currentTimeMillis() / 1000;
            assertThat(response.statusCode()).as(describe(response)).isEqualTo(200);
            assertThat(response.body()).isEqualTo("item exact");
            assertRateLimitHeaders(response, "exact", 5, 60, 4 - i, now);
        }
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = http.get("/api/items/exact");
            long now = System.currentTimeMillis() / 1000;
            assertRejected(response, "exact", 60);
            assertRateLimitHeaders(response, "exact", 5, 60, 0, now);
        }
    }

    @Test
    void aRejectedRequestDoesNotRunTheApplicationFilter() {
        long before = http.number("/app/filter-count");
        HttpResponse<String> allowed = http.get("/api/items/filter-skip");
        assertThat(allowed.statusCode()).as(describe(allowed)).isEqualTo(200);
        assertThat(allowed.headers().firstValue("X-App-Filter")).hasValue("ran");
        assertThat(http.number("/app/filter-count")).isEqualTo(before + 1);

        for (int i = 0; i < 3; i++) {
            HttpResponse<String> rejected = http.get("/api/items/filter-skip");
            assertRejected(rejected, "filter-skip", 3600);
        }
        assertThat(http.number("/app/filter-count")).as("filter runs after 3 rejections").isEqualTo(before + 1);
    }

    @Test
    void aForwardedRequestIsCountedOnce() {
        // the rule matches both the forwarding path and the target: a second check would halve the budget
        HttpResponse<String> direct = http.get("/api/items/fwd");
        assertThat(direct.statusCode()).as(describe(direct)).isEqualTo(200);
        assertThat(draft(direct)).isEqualTo(new Draft("forward-once", 3, draft(direct).resetSeconds()));
        for (long remaining = 2; remaining >= 0; remaining--) {
            HttpResponse<String> forwarded = http.get("/forward?to=/api/items/fwd");
            assertThat(forwarded.statusCode()).as(describe(forwarded)).isEqualTo(200);
            assertThat(forwarded.body()).isEqualTo("item fwd");
            assertThat(draft(forwarded).remaining()).as(describe(forwarded)).isEqualTo(remaining);
        }
        assertRejected(http.get("/forward?to=/api/items/fwd"), "forward-once", 3600);
    }

    @Test
    void anIncludedRequestIsCountedOnce() {
        HttpResponse<String> direct = http.get("/api/items/inc");
        assertThat(direct.statusCode()).as(describe(direct)).isEqualTo(200);
        assertThat(draft(direct).remaining()).as(describe(direct)).isEqualTo(2);
        for (long remaining = 1; remaining >= 0; remaining--) {
            HttpResponse<String> included = http.get("/include?to=/api/items/inc");
            assertThat(included.statusCode()).as(describe(included)).isEqualTo(200);
            assertThat(included.body()).isEqualTo("item inc");
            assertThat(draft(included).remaining()).as(describe(included)).isEqualTo(remaining);
        }
        assertRejected(http.get("/include?to=/api/items/inc"), "include-once", 3600);
    }

    @Test
    void dryRunNeverRejectsButCounts() {
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> response = http.get("/api/items/dry");
            assertThat(response.statusCode()).as("request %d past a dry-run limit of 2: %s", i + 1, describe(response))
                    .isEqualTo(200);
            assertThat(response.body()).isEqualTo("item dry");
            assertThat(response.headers().firstValue("X-App-Filter")).hasValue("ran");
        }
        // the rule was counting all along (shadow mode): switched to enforce, the same budget is already spent
        apply(current.withDryMode("enforce"));
        assertRejected(http.get("/api/items/dry"), "dry", 3600);
    }

    @Test
    void concurrencyRejectsExactlyTheExcessAndPermitsComeBack() {
        // limit 2, five parallel requests held open at a gate: exactly two get in, three are rejected at once
        assertConcurrencyLimit("/reports/hold", "reports", "c1", 5, 2);
        // permits came back: two more are admitted together
        assertConcurrencyLimit("/reports/hold", "reports", "c2", 2, 2);

        // a servlet that throws releases its permit too: five failures in a row, none rejected
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> failed = http.get("/reports/boom?ms=0&fail=true");
            assertThat(failed.statusCode()).as("failing request %d: %s", i + 1, describe(failed)).isEqualTo(500);
        }
        assertConcurrencyLimit("/reports/hold", "reports", "c3", 2, 2);
    }

    @Test
    void concurrencyHoldsPermitsUntilAnAsyncRequestEnds() {
        // the first dispatch returns at once (startAsync); the request ends when the gate opens
        assertConcurrencyLimit("/async/held", "async-held", "a1", 5, 2);
        assertConcurrencyLimit("/async/held", "async-held", "a2", 2, 2);
    }

    @Test
    void anAsyncDispatchIsNotCountedAgain() {
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = http.get("/async/once?dispatch=true&ms=0");
            assertThat(response.statusCode()).as("request %d of 3: %s", i + 1, describe(response)).isEqualTo(200);
            assertThat(response.body()).isEqualTo("async dispatched");
        }
        assertRejected(http.get("/async/once?dispatch=true&ms=0"), "async-once", 3600);
    }

    @Test
    void anErrorDispatchIsNotCountedAgain() {
        // /boom throws; the container dispatches to the error page /error, which the same rule matches
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = http.get("/boom");
            assertThat(response.statusCode()).as("request %d of 3: %s", i + 1, describe(response)).isEqualTo(500);
            assertThat(response.body()).as(describe(response)).startsWith("error page");
        }
        assertRejected(http.get("/boom"), "error-once", 3600);
    }

    @Test
    void forwardedForIsIgnoredFromUntrustedPeersAndHonouredFromTrustedOnes() {
        // peer 127.0.0.1 is not in trusted-proxies [10.0.0.0/8]: every spoofed address is the same client
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
        // the right-most untrusted address counts: a client cannot escape by prepending addresses
        assertThat(http.status(path, "X-Forwarded-For", "1.1.1.1, 7.7.7.7")).isEqualTo(200);
        // trusted hops on the right are skipped
        assertThat(http.status(path, "X-Forwarded-For", "7.7.7.7, 127.0.0.1")).isEqualTo(200);
        assertRejected(http.get(path, "X-Forwarded-For", "7.7.7.7"), "xff-trusted", 3600);
        assertThat(http.status(path, "Forwarded", "for=8.8.8.8")).as("RFC 7239 Forwarded").isEqualTo(200);
        assertThat(http.status(path)).as("no header: the peer itself").isEqualTo(200);
    }

    @Test
    void keysFromAHeaderAQueryParameterAndAPathParameterGetTheirOwnBudgets() {
        assertThat(http.status("/api/items/by-header", "X-Api-Key", "alice")).isEqualTo(200);
        assertRejected(http.get("/api/items/by-header", "X-Api-Key", "alice"), "by-header", 3600);
        assertThat(http.status("/api/items/by-header", "X-Api-Key", "bob")).as("another key").isEqualTo(200);

        assertThat(http.status("/api/items/by-param?user=alice")).isEqualTo(200);
        assertRejected(http.get("/api/items/by-param?user=alice&other=1"), "by-param", 3600);
        assertThat(http.status("/api/items/by-param?user=bob")).as("another key").isEqualTo(200);

        HttpResponse<String> alice = http.get("/api/users/alice");
        assertThat(alice.statusCode()).as(describe(alice)).isEqualTo(200);
        assertThat(alice.body()).isEqualTo("user alice");
        assertRejected(http.get("/api/users/alice"), "by-path-param", 3600);
        assertThat(http.status("/api/users/bob")).as("another key").isEqualTo(200);
    }

    @Test
    void aLiveReloadChangesTheLimitWithinSeconds() {
        assertThat(http.status("/api/items/reload")).isEqualTo(200);
        assertThat(http.status("/api/items/reload")).isEqualTo(200);
        assertRejected(http.get("/api/items/reload"), "reload", 3600);

        ScenarioRules raised = current.withReloadLimit(50);
        String raisedPolicy = "\"reload\";q=50;w=3600";
        long start = System.nanoTime();
        rules.write(raised.render(rules.nextVersion()));
        // live means admitted under the new rules: a 200 that states the new limit (a 200 alone could still be
        // the old rules' answer, in the moment before the new set is published)
        await("limit 2 -> 50 is live").atMost(RELOAD_TIMEOUT).pollInterval(POLL)
                .until(() -> {
                    HttpResponse<String> answer = http.get("/api/items/reload");
                    return answer.statusCode() == 200 && raisedPolicy.equals(policy(answer));
                });
        System.out.printf("%s: reload applied after %d ms%n", app(), (System.nanoTime() - start) / 1_000_000);
        current = raised;
        HttpResponse<String> response = http.get("/api/items/reload");
        assertThat(response.statusCode()).as(describe(response)).isEqualTo(200);
        assertThat(policy(response)).isEqualTo(raisedPolicy);
    }

    @Test
    void aBrokenReloadKeepsTheOldRules() {
        assertThat(http.status("/api/items/keep")).isEqualTo(200);
        assertRejected(http.get("/api/items/keep"), "keep", 3600);

        int version = rules.nextVersion();
        ScenarioRules.Broken broken = current.renderBroken(version);
        rules.write(broken.text());
        server.awaitOutput("rules\\.yml:" + broken.errorLine() + ":\\d+: ", RELOAD_TIMEOUT);
        // nothing of the broken version applies: keep stays at limit 1, its marker rule does not exist
        await("old rules still live").during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(20)).pollInterval(POLL)
                .until(() -> http.status("/api/items/keep") == 429
                        && http.status(ScenarioRules.markerPath(version)) == 200);

        // and the watcher still works: fixing the file applies it
        apply(current.withKeepLimit(1000));
        assertThat(http.status("/api/items/keep")).isEqualTo(200);
    }

    @Test
    void invalidRulesAtStartupLeaveTheAppServingUntilTheFileIsFixed() {
        RulesFile startup = RulesFile.create("startup-rules.yml");
        try {
            startup.write(StartupRules.invalid());
            ForkedServer unprotected = servers.track(ForkedServer.start(app(), logName("invalid-startup"),
                    List.of(Agent.option(startup.path()))));
            unprotected.awaitOutput("limiter \\S+ started: rules \\S*startup-rules\\.yml, invalid rules",
                    Duration.ofSeconds(10));
            unprotected.awaitOutput("startup-rules\\.yml:" + StartupRules.INVALID_LINE + ":\\d+: ",
                    Duration.ofSeconds(10));
            HttpApi api = unprotected.http();
            for (int i = 0; i < 5; i++) {
                HttpResponse<String> response = api.get("/api/items/startup");
                assertThat(response.statusCode()).as("unprotected request %d: %s", i + 1, describe(response))
                        .isEqualTo(200);
            }

            int version = startup.nextVersion();
            startup.write(StartupRules.valid(version));
            await("fixed rules are live").atMost(RELOAD_TIMEOUT).pollInterval(POLL)
                    .until(() -> api.status(ScenarioRules.markerPath(version)) == 429);
            for (long remaining = 1; remaining >= 0; remaining--) {
                HttpResponse<String> response = api.get("/api/items/startup");
                assertThat(response.statusCode()).as(describe(response)).isEqualTo(200);
                assertThat(draft(response)).isEqualTo(new Draft("startup", remaining, draft(response).resetSeconds()));
            }
            // the defaults: draft headers only, the default JSON body and content type
            HttpResponse<String> rejected = api.get("/api/items/startup");
            assertThat(rejected.statusCode()).as(describe(rejected)).isEqualTo(429);
            long retryAfter = retryAfter(rejected);
            assertThat(retryAfter).isBetween(1L, 3600L);
            assertThat(rejected.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("application/json"));
            assertThat(rejected.body()).matches(
                    "\\{\"error\":\"too_many_requests\",\"rule\":\"startup\",\"retry_after\":\\d+}");
            assertThat(policy(rejected)).isEqualTo("\"startup\";q=2;w=3600");
            assertThat(rejected.headers().firstValue("X-RateLimit-Limit")).as("legacy headers are off by default")
                    .isEmpty();

            // the response section reloads too: status, body, content type and header style
            awaitVersion(api, startup, StartupRules::customResponse, "legacy");
            HttpResponse<String> legacy = api.get("/api/items/startup");
            assertThat(legacy.statusCode()).as(describe(legacy)).isEqualTo(503);
            assertThat(legacy.body()).isEqualTo("slow down: startup");
            assertThat(legacy.headers().firstValue("Content-Type")).hasValueSatisfying(
                    type -> assertThat(type).startsWith("text/plain"));
            assertThat(retryAfter(legacy)).isBetween(1L, 3600L);
            assertThat(number(legacy, "X-RateLimit-Limit")).isEqualTo(2);
            assertThat(number(legacy, "X-RateLimit-Remaining")).isZero();
            assertThat(legacy.headers().firstValue("RateLimit")).as("no draft headers with headers: legacy").isEmpty();

            awaitVersion(api, startup, StartupRules::customResponse, "none");
            HttpResponse<String> none = api.get("/api/items/startup");
            assertThat(none.statusCode()).as(describe(none)).isEqualTo(503);
            assertThat(retryAfter(none)).as("Retry-After belongs to every rejection").isBetween(1L, 3600L);
            assertThat(none.headers().map().keySet()).as(describe(none))
                    .noneMatch(name -> name.toLowerCase(Locale.ROOT).startsWith("ratelimit")
                            || name.toLowerCase(Locale.ROOT).startsWith("x-ratelimit"));
            unprotected.close();
        } finally {
            startup.delete();
        }
    }

    @Test
    void invalidRulesWithStrictStopTheJvm() {
        RulesFile strict = RulesFile.create("strict-rules.yml");
        try {
            strict.write(StartupRules.invalid());
            ForkedServer refused = servers.track(ForkedServer.launch(app(), logName("strict"),
                    List.of(Agent.option(strict.path(), "strict=true"))));
            int exit = refused.awaitExit(ForkedServer.START_TIMEOUT);
            assertThat(exit).as(refused.tail(40)).isNotZero();
            assertThat(refused.output()).doesNotContain("LISTENING")
                    .containsPattern("strict-rules\\.yml:" + StartupRules.INVALID_LINE + ":\\d+: ");
        } finally {
            strict.delete();
        }
    }

    // ---- helpers

    private String logName(String suffix) {
        return getClass().getSimpleName() + "-" + suffix;
    }

    /** Writes the next version of the scenario rules and waits until its marker rule is live. */
    private void apply(ScenarioRules next) {
        int version = rules.nextVersion();
        rules.write(next.render(version));
        await("rules version " + version + " is live").atMost(RELOAD_TIMEOUT).pollInterval(POLL)
                .until(() -> http.status(ScenarioRules.markerPath(version)) == 429);
        current = next;
    }

    /** Writes the next version made by {@code render(version, arg)} and waits until its marker rule rejects. */
    private static void awaitVersion(HttpApi api, RulesFile file, BiFunction<Integer, String, String> render,
            String arg) {
        int version = file.nextVersion();
        file.write(render.apply(version, arg));
        await("rules version " + version + " is live").atMost(RELOAD_TIMEOUT).pollInterval(POLL)
                .until(() -> api.status(ScenarioRules.markerPath(version)) != 200);
    }

    /** Exactly {@code limit} of {@code parallel} requests held at a gate get in; then all permits come back. */
    private void assertConcurrencyLimit(String path, String rule, String gate, int parallel, int limit) {
        ScenarioContract.assertConcurrencyLimit(http, path, gate, parallel, limit,
                rejected -> assertRejected(rejected, rule, Long.MAX_VALUE));
        awaitPermitsReleased(rule, limit);
    }

    /**
     * A client can see a response before the server has released its permit (an async request's permit is
     * released by the container's {@code onComplete}, which may run after the last byte went out), so the next
     * round waits until the rule, read over JMX, has every permit back.
     */
    private void awaitPermitsReleased(String rule, int limit) {
        if (jmx == null) {
            jmx = AttachedJmx.attach(jmxMarker);
        }
        ObjectName name = ruleName(rule);
        await("all " + limit + " permits of " + rule + " released").atMost(RELOAD_TIMEOUT).pollInterval(POLL)
                .ignoreExceptions() // the MBeans register a moment after start-up
                .until(() -> (Long) jmx.connection().invoke(name, "remaining", new Object[] {""},
                        new String[] {String.class.getName()}) == limit);
    }

    private static ObjectName ruleName(String rule) {
        try {
            return new ObjectName("dev.limiter:type=Rule,name=" + rule);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(rule, e);
        }
    }

    /** {@link ScenarioContract#assertRejected}, and the application's filter did not run. */
    private static void assertRejected(HttpResponse<String> response, String rule, long maxRetryAfter) {
        ScenarioContract.assertRejected(response, rule, maxRetryAfter);
        assertThat(response.headers().firstValue("X-App-Filter")).as("app filter ran for a rejected request: %s",
                describe(response)).isEmpty();
    }
}
