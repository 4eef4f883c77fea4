package dev.limiter.it.reactive;

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
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The HTTP contract of the agent on a reactive server (Spring WebFlux on Reactor Netty, Quarkus on Vert.x Web; no
 * servlet API), one real server per subclass with the built agent jar: the same {@code http:} rules, 429s,
 * headers and body as the servlet matrix ({@code AbstractLimiterServerTest}, whose assertions these mirror),
 * every key kind, dry-run, reloads both ways, JMX counts, and {@code concurrency} permits given back on complete
 * and on error. One JVM serves every scenario; each owns a rule and a path ({@link ReactiveScenarioRules}).
 * Subclasses add their stack's rules and scenarios (a client hanging up, the stack's own paths).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractReactiveHttpLimiterTest {

    protected static final Duration TIMEOUT = Duration.ofSeconds(30);
    protected static final Duration POLL = Duration.ofMillis(200);

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ReactiveScenarioRules current;
    protected ForkedServer server;
    protected HttpApi http;
    private String jmxMarker;
    private AttachedJmx jmx;

    /** The server under test. */
    protected abstract TestApp app();

    /** The stack's own rules (entries indented by two spaces) after the shared ones. */
    protected abstract String stackRules();

    /** How many rules {@link #stackRules} has. */
    protected abstract int stackRuleCount();

    /** JVM options the server needs besides JMX and the agent. */
    protected List<String> jvmOptions() {
        return List.of();
    }

    @BeforeAll
    void startServer() {
        rules = RulesFile.create("rules.yml");
        current = ReactiveScenarioRules.initial(stackRules(), stackRuleCount());
        rules.write(current.render(rules.nextVersion()));
        jmxMarker = AttachedJmx.newMarker();
        List<String> options = new ArrayList<>(List.of(AttachedJmx.markerOption(jmxMarker)));
        options.addAll(jvmOptions());
        options.add(Agent.option(rules.path()));
        server = servers.track(ForkedServer.start(app(), getClass().getSimpleName() + "-server", options));
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

    protected ReactiveScenarioRules current() {
        return current;
    }

    @Test
    void startupBannerNamesTheRulesFileAndTheRuleCount() {
        server.awaitOutput("limiter \\S+ started: rules \\S*rules\\.yml, " + current.ruleCount()
                + " rules", Duration.ofSeconds(10));
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
        // a segment parameter is no way around a rule (Spring and Vert.x Web route /x;p=1 as /x)
        assertRejected(http.get("/api/items/by-header;v=2", "X-Api-Key", "bob"), "by-header", 3600);

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
    void principalIsAMissingKeySoOnErrorDecides() {
        // no principal is known before the handler: on-error reject fails closed, the default allow opens
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
    void concurrencyRejectsExactlyTheExcessAndPermitsComeBackOnCompleteAndOnError() {
        assertConcurrencyLimit("h1", 5, 2);
        assertConcurrencyLimit("h2", 2, 2);

        // a failing handler gives its permit back: five failures in a row, none rejected. The permit comes back
        // when the exchange ends, just after the last byte went out, so the client may see the 500 a moment
        // before: each round waits for it (never released is what fails here)
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> failed = http.get("/fail/boom");
            assertThat(failed.statusCode()).as("failing request %d: %s", i + 1, describe(failed)).isEqualTo(500);
            awaitPermits("failing", 1);
        }
        assertThat(attribute("failing", "Rejected")).isZero();
    }

    // ---- helpers

    protected void apply(ReactiveScenarioRules next) {
        int version = rules.nextVersion();
        rules.write(next.render(version));
        await("rules version " + version + " is live").atMost(TIMEOUT).pollInterval(POLL)
                .until(() -> http.status(ScenarioContract.markerPath(version)) == 429);
        current = next;
    }

    /** {@code parallel} requests held at a gate: exactly {@code limit} reach it, the rest are rejected at once. */
    protected void assertConcurrencyLimit(String gate, int parallel, int limit) {
        ScenarioContract.assertConcurrencyLimit(http, "/hold/x", gate, parallel, limit,
                rejected -> assertRejected(rejected, "held", Long.MAX_VALUE));
        awaitPermits("held", limit);
    }

    protected void awaitPermits(String rule, long limit) {
        await("all " + limit + " permits of " + rule + " back").atMost(TIMEOUT).pollInterval(POLL)
                .ignoreExceptions() // the MBeans register a moment after the first request
                .until(() -> remaining(rule) == limit);
    }

    protected long remaining(String rule) throws Exception {
        return (Long) jmx().connection().invoke(ruleName(rule), "remaining", new Object[] {""},
                new String[] {String.class.getName()});
    }

    protected long attribute(String rule, String attribute) {
        long[] value = new long[1];
        await(rule + "." + attribute + " readable").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions()
                .until(() -> {
                    value[0] = ((Number) jmx().connection().getAttribute(ruleName(rule), attribute)).longValue();
                    return true;
                });
        return value[0];
    }

    protected AttachedJmx jmx() {
        if (jmx == null) {
            jmx = AttachedJmx.attach(jmxMarker);
        }
        return jmx;
    }

    protected static ObjectName ruleName(String rule) {
        try {
            return new ObjectName("dev.limiter:type=Rule,name=" + rule);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(rule, e);
        }
    }
}
