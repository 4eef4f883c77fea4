package dev.limiter.it.rest;

import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static dev.limiter.it.harness.RateLimitHeaders.draft;
import static dev.limiter.it.harness.RateLimitHeaders.number;
import static dev.limiter.it.harness.RateLimitHeaders.policy;
import static dev.limiter.it.harness.RateLimitHeaders.retryAfter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.harness.Agent;
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
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The JAX-RS and plain-method contract of the agent (docs/jaxrs.md), run against one real JAX-RS server per subclass:
 * one server JVM with the agent serves all scenarios of a class, each scenario owning its rule in
 * {@link JaxrsScenarioRules}. The application (integration-tests/apps/jaxrs-jakarta) knows nothing of the limiter
 * except {@code RateLimitExceededException}, which it catches around its plain-method calls and reports as a 503
 * body {@code rejected by <rule> class=<exception> retryAfterMs=<n>} (or, for a {@code throw:} exception,
 * {@code rejected class=<exception> message=<message>}).
 *
 * <p>Scenarios that need the HTTP request in flight (servlet-path rules, header keys) live in
 * {@link AbstractJaxrsServletServerTest}.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractJaxrsServerTest {

    static final Duration RELOAD_TIMEOUT = Duration.ofSeconds(30);
    static final Duration POLL = Duration.ofMillis(200);
    private static final long HOUR_SECONDS = 3600;
    private static final String RESPONSE_CONTENT_TYPE = JaxrsScenarioRules.RESPONSE_CONTENT_TYPE;
    private static final Pattern BODY = Pattern.compile(
            "\\{\"type\":\"rate-limited\",\"rule\":\"([^\"]+)\",\"retry_after\":(\\d+)}");
    private static final Pattern METHOD_REJECTION = Pattern.compile(
            "rejected by (\\S+) class=RateLimitExceededException retryAfterMs=(\\d+)");
    private static final Pattern RUNTIME = Pattern.compile("java=(\\d+) thread=(virtual|platform)");
    private static final int VIRTUAL_THREADS_SINCE = 21;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private JaxrsScenarioRules current;
    ForkedServer server;
    HttpApi http;

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
        current = JaxrsScenarioRules.initial(app().kind() == TestApp.Kind.JAXRS_ON_SERVLET);
        rules.write(current.render(rules.nextVersion()));
        server = servers.track(ForkedServer.start(app(), getClass().getSimpleName() + "-server",
                List.of(Agent.option(rules.path()))));
        http = server.http();
    }

    @AfterAll
    void stopServer() {
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    @Test
    void startupBannerCountsTheJaxrsAndMethodRules() {
        server.awaitOutput("limiter \\S+ started: rules \\S*rules\\.yml, " + current.ruleCount() + " rules",
                Duration.ofSeconds(10));
    }

    @Test
    void requestsRunOnVirtualThreadsFromJava21WhereTheServerCan() {
        HttpResponse<String> response = http.get("/rest/app/runtime");
        Matcher runtime = RUNTIME.matcher(response.body());
        assertThat(runtime.matches()).as(describe(response)).isTrue();
        boolean virtual = servesOnVirtualThreads() && Integer.parseInt(runtime.group(1)) >= VIRTUAL_THREADS_SINCE;
        assertThat(runtime.group(2)).as(response.body()).isEqualTo(virtual ? "virtual" : "platform");
    }

    @Test
    void aResourceMethodAdmitsExactlyTheLimitThenRejectsWithHeadersAndLeavesTheOtherMethodsAlone() {
        WindowGuard.awaitRoomInWindow(Duration.ofHours(1), Duration.ofSeconds(20));
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = http.get("/rest/items/exact");
            assertThat(response.statusCode()).as("request %d of 3: %s", i + 1, describe(response)).isEqualTo(200);
            assertThat(response.body()).isEqualTo("item exact");
        }
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = http.get("/rest/items/exact");
            long now = System.currentTimeMillis() / 1000;
            assertRejected(response, "items-get", HOUR_SECONDS);
            assertRateLimitHeaders(response, "items-get", 3, HOUR_SECONDS, now);
        }
        // the other resource methods of the same class are not woven with items-get's check
        for (int i = 0; i < 6; i++) {
            HttpResponse<String> list = http.get("/rest/items");
            assertThat(list.statusCode()).as(describe(list)).isEqualTo(200);
            assertThat(list.body()).isEqualTo("items");
            HttpResponse<String> created = http.post("/rest/items", "pen" + i);
            assertThat(created.statusCode()).as(describe(created)).isEqualTo(200);
            assertThat(created.body()).isEqualTo("created pen" + i);
        }
        assertRejected(http.get("/rest/items/exact"), "items-get", HOUR_SECONDS);
    }

    @Test
    void aPathParameterKeyGivesEachIdItsOwnBudget() {
        for (String id : List.of("alice", "bob")) {
            for (int i = 0; i < 3; i++) {
                HttpResponse<String> response = http.get("/rest/items/" + id);
                assertThat(response.statusCode()).as("%s, request %d: %s", id, i + 1, describe(response))
                        .isEqualTo(200);
                assertThat(response.body()).isEqualTo("item " + id);
            }
            assertRejected(http.get("/rest/items/" + id), "items-get", HOUR_SECONDS);
        }
        assertThat(http.status("/rest/items/carol")).as("a third id").isEqualTo(200);
    }

    @Test
    void anArgumentKeyGivesEachValueItsOwnBudget() {
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = http.get("/rest/items/search?q=ink");
            assertThat(response.statusCode()).as(describe(response)).isEqualTo(200);
            assertThat(response.body()).isEqualTo("found ink");
        }
        assertRejected(http.get("/rest/items/search?q=ink"), "items-search", HOUR_SECONDS);
        assertThat(http.get("/rest/items/search?q=pen").body()).as("another value of arg:0").isEqualTo("found pen");
    }

    @Test
    void aRejectionGetsThroughTheApplicationsExceptionMapperAsA429() {
        // the mapper is there: the method's own exception becomes the application's 500
        HttpResponse<String> mapped = http.get("/rest/items/fail");
        assertThat(mapped.statusCode()).as(describe(mapped)).isEqualTo(500);
        assertThat(mapped.body()).isEqualTo("mapped by app");
        // and the limiter's rejection of the same method is not turned into one
        for (int i = 0; i < 3; i++) {
            assertRejected(http.get("/rest/items/fail"), "items-fail", HOUR_SECONDS);
        }
    }

    @Test
    void aResourceMethodWithAnnotationsInheritedFromAnInterfaceIsLimited() {
        assertThat(http.get("/rest/greetings/ann").body()).isEqualTo("hello ann");
        assertThat(http.get("/rest/greetings/bob").body()).isEqualTo("hello bob");
        assertRejected(http.get("/rest/greetings/ann"), "greetings", HOUR_SECONDS);
        assertRejected(http.get("/rest/greetings/cy"), "greetings", HOUR_SECONDS);
    }

    @Test
    void aPlainMethodRejectsWithRateLimitExceededExceptionCarryingTheRuleAndRetryAfter() {
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> response = http.get("/rest/mail?to=ann");
            assertThat(response.statusCode()).as(describe(response)).isEqualTo(200);
            assertThat(response.body()).isEqualTo("sent to ann");
        }
        assertMethodRejected(http.get("/rest/mail?to=ann"), "mail", HOUR_SECONDS * 1000);
        assertThat(http.get("/rest/mail?to=bob").body()).as("another value of arg:0").isEqualTo("sent to bob");
    }

    @Test
    void aPlainMethodRejectsWithTheExceptionNamedByThrow() {
        assertThat(http.get("/rest/mail/urgent?to=ann").body()).isEqualTo("sent urgently to ann");
        for (int i = 0; i < 2; i++) {
            HttpResponse<String> rejected = http.get("/rest/mail/urgent?to=bob");
            assertThat(rejected.statusCode()).as(describe(rejected)).isEqualTo(503);
            assertThat(rejected.body()).as("the throw: class, constructed with a message naming the rule")
                    .startsWith("rejected class=MailQuotaException message=")
                    .contains("mail-urgent");
        }
    }

    @Test
    void aConcurrencyRuleOnAPlainMethodReleasesItsPermitOnNormalAndExceptionalExit() {
        assertOneCallAtATime("c1");
        // normal exit gave the permit back: calls one after another all pass
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = http.get("/rest/mail/slow");
            assertThat(response.statusCode()).as("call %d after the gate: %s", i + 1, describe(response))
                    .isEqualTo(200);
        }
        // a method that throws gives it back too: failures in a row, none rejected
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> failed = http.get("/rest/mail/slow?fail=true");
            assertThat(failed.statusCode()).as("failing call %d: %s", i + 1, describe(failed)).isEqualTo(502);
            assertThat(failed.body()).isEqualTo("send failed: mail server down");
        }
        assertOneCallAtATime("c2");
    }

    @Test
    void aReloadAddsAMethodRuleForAnAlreadyLoadedClassAndRemovingItStopsRejectionsAtOnce() {
        // Notifier is loaded (and, with no rule naming it, not woven) before any rule names it
        for (int i = 0; i < 3; i++) {
            assertThat(http.get("/rest/notify?to=ann").body()).isEqualTo("pinged ann");
        }

        long start = System.nanoTime();
        apply(current.withNotifyRule(true));
        await("the notify rule limits the already loaded Notifier").atMost(RELOAD_TIMEOUT).pollInterval(POLL)
                .until(() -> http.status("/rest/notify?to=ann") == 503);
        System.out.printf("%s: a reloaded method rule rejected after %d ms%n", app(),
                (System.nanoTime() - start) / 1_000_000);
        assertMethodRejected(http.get("/rest/notify?to=bob"), "notify", HOUR_SECONDS * 1000);

        apply(current.withNotifyRule(false));
        // the first call after the reload is seen is allowed: no await
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = http.get("/rest/notify?to=ann");
            assertThat(response.statusCode()).as("call %d after the rule was removed: %s", i + 1, describe(response))
                    .isEqualTo(200);
            assertThat(response.body()).isEqualTo("pinged ann");
        }
    }

    @Test
    void aReloadAddsAJaxrsRuleForAnAlreadyLoadedResourceAndRemovingItStopsRejectionsAtOnce() {
        // the runtime has loaded and called StockResource before any rule names it
        for (int i = 0; i < 3; i++) {
            assertThat(http.get("/rest/stock/pen").body()).isEqualTo("stock pen");
        }

        long start = System.nanoTime();
        apply(current.withStockRule(true));
        await("the stock rule limits the already loaded StockResource").atMost(RELOAD_TIMEOUT).pollInterval(POLL)
                .until(() -> http.status("/rest/stock/pen") == 429);
        System.out.printf("%s: a reloaded jaxrs rule rejected after %d ms%n", app(),
                (System.nanoTime() - start) / 1_000_000);
        assertRejected(http.get("/rest/stock/pen"), "stock", HOUR_SECONDS);
        // re-woven with its path-param key: another sku has its own budget of 1
        assertThat(http.get("/rest/stock/ink").body()).isEqualTo("stock ink");
        assertRejected(http.get("/rest/stock/ink"), "stock", HOUR_SECONDS);

        apply(current.withStockRule(false));
        for (int i = 0; i < 3; i++) {
            HttpResponse<String> response = http.get("/rest/stock/pen");
            assertThat(response.statusCode()).as("call %d after the rule was removed: %s", i + 1, describe(response))
                    .isEqualTo(200);
            assertThat(response.body()).isEqualTo("stock pen");
        }
    }

    // ---- helpers

    /** Writes the next version of the scenario rules and waits until its marker rule is live. */
    void apply(JaxrsScenarioRules next) {
        int version = rules.nextVersion();
        rules.write(next.render(version));
        String marker = "rejected by rules-v" + version + " ";
        await("rules version " + version + " is live").atMost(RELOAD_TIMEOUT).pollInterval(POLL)
                .until(() -> http.get("/rest/marker").body().startsWith(marker));
        current = next;
    }

    /**
     * {@code mail-slow} allows one call at a time: one call held at {@code gate} in {@code Mailer.sendSlow}, a
     * second one is rejected at once; the gate opens and the held call completes.
     */
    private void assertOneCallAtATime(String gate) {
        CompletableFuture<HttpResponse<String>> held = http.getAsync("/rest/mail/slow?gate=" + gate);
        try {
            await("a call held at gate " + gate).atMost(RELOAD_TIMEOUT).pollInterval(POLL)
                    .until(() -> http.number("/rest/app/gate?name=" + gate) == 1 || held.isDone());
            assertThat(held).as("the first call is admitted and waits at the gate").isNotDone();
            assertMethodRejected(http.get("/rest/mail/slow"), "mail-slow", Long.MAX_VALUE);
        } finally {
            http.get("/rest/app/release?name=" + gate);
        }
        HttpResponse<String> released = held.orTimeout(90, TimeUnit.SECONDS).join();
        assertThat(released.statusCode()).as(describe(released)).isEqualTo(200);
        assertThat(released.body()).isEqualTo("sent slowly");
    }

    /** 429, Retry-After in [1, maxRetryAfter], the configured body and content type naming {@code rule}. */
    static void assertRejected(HttpResponse<String> response, String rule, long maxRetryAfter) {
        assertThat(response.statusCode()).as(describe(response)).isEqualTo(429);
        assertThat(response.body()).as("the application's ExceptionMapper got the rejection")
                .isNotEqualTo("mapped by app");
        long retryAfter = retryAfter(response);
        assertThat(retryAfter).as(describe(response)).isBetween(1L, maxRetryAfter);
        assertThat(response.headers().firstValue("Content-Type")).as(describe(response))
                .hasValueSatisfying(type -> assertThat(type).startsWith(RESPONSE_CONTENT_TYPE));
        Matcher body = BODY.matcher(response.body());
        assertThat(body.matches()).as("configured body: %s", describe(response)).isTrue();
        assertThat(body.group(1)).isEqualTo(rule);
        assertThat(Long.parseLong(body.group(2))).isBetween(1L, maxRetryAfter);
    }

    /** Draft and legacy headers ({@code headers: both}) of a rejection by {@code rule} at epoch second {@code now}. */
    private static void assertRateLimitHeaders(HttpResponse<String> response, String rule, long limit,
            long windowSeconds, long now) {
        assertThat(policy(response)).as(describe(response))
                .isEqualTo("\"" + rule + "\";q=" + limit + ";w=" + windowSeconds);
        Draft draft = draft(response);
        assertThat(draft.rule()).isEqualTo(rule);
        assertThat(draft.remaining()).as(describe(response)).isZero();
        assertThat(draft.resetSeconds()).as(describe(response)).isBetween(0L, windowSeconds);
        assertThat(number(response, "X-RateLimit-Limit")).isEqualTo(limit);
        assertThat(number(response, "X-RateLimit-Remaining")).isZero();
        assertThat(number(response, "X-RateLimit-Reset")).as(describe(response))
                .isBetween(now - 2, now + windowSeconds + 2);
    }

    /** The app's 503 for a plain method that threw RateLimitExceededException from {@code rule}. */
    static void assertMethodRejected(HttpResponse<String> response, String rule, long maxRetryAfterMillis) {
        assertThat(response.statusCode()).as(describe(response)).isEqualTo(503);
        Matcher body = METHOD_REJECTION.matcher(response.body());
        assertThat(body.matches()).as("a RateLimitExceededException: %s", describe(response)).isTrue();
        assertThat(body.group(1)).isEqualTo(rule);
        assertThat(Long.parseLong(body.group(2))).isBetween(1L, maxRetryAfterMillis);
    }
}
