package dev.limiter.it;

import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static dev.limiter.it.harness.RateLimitHeaders.retryAfter;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.core.spi.FailingStrategy;
import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.spi.StrategyJar;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.MatchResult;
import java.util.regex.Pattern;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * "Never harm the application", in a real server: Tomcat 11 with the agent and a custom strategy jar
 * ({@link FailingStrategy} packed by {@link StrategyJar}, given with {@code strategies=}) whose checks always throw, used by the rules whose id
 * starts with {@code fault-}. The {@code on-error: allow} rule lets every request through to the application, the
 * {@code on-error: reject} rule answers 429 with {@code Retry-After}, each failure is counted exactly in the rule's
 * {@code Errors} (read over JMX), and the failures are logged through the agent's throttled log: one record, then
 * silence for its interval (10 s), then one record that says how many were suppressed.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class FaultInjectionLimiterTest {

    private static final Pattern RECORD = Pattern.compile(
            "(?m)^WARNING: limiter: rule (fault-allow|fault-reject) failed; the request is (allowed|rejected)"
                    + " \\(on-error: (allow|reject)\\)(?: \\((\\d+) similar messages suppressed\\))?[ \t\r]*$");
    /** The agent's throttle is 10 s; a second record must come well within this. */
    private static final Duration NEXT_RECORD = Duration.ofSeconds(40);

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private Path strategyJar;
    private ForkedServer server;
    private HttpApi http;
    private AttachedJmx jmx;
    private String marker;
    private int faultsSent;

    @BeforeAll
    void startServer() throws IOException {
        rules = RulesFile.create("rules.yml");
        strategyJar = StrategyJar.write(FailingStrategy.class, Files.createTempFile("limiter-failing-strategy", ".jar"));
        rules.write("""
                version: 1
                rules:
                  - id: fault-allow
                    match: { http: { path: /api/items/fault-allow } }
                    strategy: failing-for-tests
                    limit: 1
                    window: 1h
                  - id: fault-reject
                    match: { http: { path: /api/items/fault-reject } }
                    strategy: failing-for-tests
                    limit: 1000
                    window: 1h
                    on-error: reject
                  - id: healthy
                    match: { http: { path: /api/items/healthy } }
                    limit: 2
                    window: 1h
                """);
        marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(TestApp.TOMCAT11_JAKARTA, "FaultInjectionLimiterTest-server",
                List.of(AttachedJmx.markerOption(marker), Agent.option(rules.path(), "strategies=" + strategyJar))));
        http = server.http();
    }

    @AfterAll
    void stopServer() throws IOException {
        if (jmx != null) {
            jmx.close();
        }
        if (server != null) {
            server.close();
        }
        rules.delete();
        if (strategyJar != null) {
            Files.deleteIfExists(strategyJar);
        }
    }

    @Test
    void failingRulesFollowTheirOnErrorPolicyAreCountedExactlyAndLoggedWithinTheThrottle() {
        long started = System.nanoTime();
        for (int i = 0; i < 20; i++) {
            HttpResponse<String> response = fault("/api/items/fault-allow");
            assertThat(response.statusCode()).as("on-error: allow, request %d past limit 1: %s", i + 1,
                    describe(response)).isEqualTo(200);
            assertThat(response.body()).isEqualTo("item fault-allow");
            assertThat(response.headers().firstValue("X-App-Filter")).hasValue("ran");
        }
        for (int i = 0; i < 5; i++) {
            HttpResponse<String> response = fault("/api/items/fault-reject");
            assertThat(response.statusCode()).as("on-error: reject: %s", describe(response)).isEqualTo(429);
            assertThat(retryAfter(response)).isEqualTo(1); // the failure path asks for a retry in 1 s
            assertThat(response.body()).isEqualTo(
                    "{\"error\":\"too_many_requests\",\"rule\":\"fault-reject\",\"retry_after\":1}");
            assertThat(response.headers().firstValue("X-App-Filter")).as("the application was not run").isEmpty();
        }
        long burstMillis = (System.nanoTime() - started) / 1_000_000;

        // the application and the healthy rule beside the failing ones are unaffected
        assertThat(http.get("/api/hello").body()).isEqualTo("hello");
        assertThat(http.status("/api/items/healthy")).isEqualTo(200);
        assertThat(http.status("/api/items/healthy")).isEqualTo(200);
        assertThat(http.status("/api/items/healthy")).isEqualTo(429);

        assertThat(errors("fault-allow")).isEqualTo(20);
        assertThat(errors("fault-reject")).isEqualTo(5);
        assertThat(errors("healthy")).isZero();

        List<MatchResult> records = records();
        assertThat(records).as("the first failure is logged").isNotEmpty();
        assertThat(records.get(0).group(1)).isEqualTo("fault-allow");
        assertThat(records.get(0).group(4)).as("nothing suppressed before the first record").isNull();
        assertThat(server.output()).contains("java.lang.IllegalStateException: " + FailingStrategy.MESSAGE);
        // one record per 10 s at most: 25 failures in burstMillis
        assertThat(records.size()).as("records for 25 failures in %d ms", burstMillis)
                .isLessThanOrEqualTo(1 + (int) (burstMillis / 10_000) + 1);

        // keep failing until the throttle lets the next record out: it accounts for everything it held back
        int before = records.size();
        await("the next throttled record").atMost(NEXT_RECORD).pollInterval(Duration.ofMillis(250))
                .until(() -> {
                    assertThat(fault("/api/items/fault-reject").statusCode()).isEqualTo(429);
                    return records().size() > before;
                });
        List<MatchResult> all = records();
        assertThat(all).hasSize(before + 1);
        assertThat(all.size()).as("the throttle held failures back").isLessThan(faultsSent);
        long accounted = 0;
        for (MatchResult record : all) {
            accounted += 1 + (record.group(4) == null ? 0 : Long.parseLong(record.group(4)));
        }
        // the last request logged, so every failure so far is either a record or counted in a later one's
        // "(N similar messages suppressed)"
        assertThat(accounted).as(server.tail(40)).isEqualTo(faultsSent);
        assertThat(errors("fault-allow") + errors("fault-reject")).isEqualTo(faultsSent);
    }

    private HttpResponse<String> fault(String path) {
        faultsSent++;
        return http.get(path);
    }

    private List<MatchResult> records() {
        return RECORD.matcher(server.output()).results().toList();
    }

    /** The rule's {@code Errors} over JMX (its MBean registers a moment after start-up). */
    private long errors(String rule) {
        if (jmx == null) {
            jmx = AttachedJmx.attach(marker);
        }
        long[] value = new long[1];
        await("Errors of " + rule).atMost(Duration.ofSeconds(30)).ignoreExceptions().until(() -> {
            value[0] = (Long) jmx.connection().getAttribute(
                    new ObjectName("dev.limiter:type=Rule,name=" + rule), "Errors");
            return true;
        });
        return value[0];
    }
}
