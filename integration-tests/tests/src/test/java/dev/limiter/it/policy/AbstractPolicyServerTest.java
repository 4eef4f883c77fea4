package dev.limiter.it.policy;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

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
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * What a rule can say beyond one limit, against a real container with the agent, over real HTTP and JMX:
 * several limits as one decision, plans (overrides by key and by request, unlimited keys), exemptions, a
 * request's cost and request conditions in the match, each with exact counts, and a reload that keeps every
 * key's spent budget.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
abstract class AbstractPolicyServerTest {

    private static final String RULES = """
            version: 1
            client-ip: { trusted-proxies: [127.0.0.1/32] }
            rules:
              - id: two-limits
                match: { http: { path: /api/items/two } }
                limits:
                  - { limit: 4, window: 1h }
                  - { limit: 2, window: 10s }
              - id: plans
                match: { http: { path: /api/items/plans } }
                key: header:X-Api-Key
                limit: 2
                window: 1h
                unless:
                  - ips: [10.0.0.0/8]
                  - headers: { X-Health-Check: 'true' }
                overrides:
                  - name: gold
                    keys: [k-gold]
                    limit: %d
                    window: 1h
                  - name: internal
                    keys: [k-internal]
                    unlimited: true
                  - name: pro
                    when: { headers: { X-Plan: pro } }
                    limit: 3
                    window: 1h
              - id: export
                match: { http: { path: /api/items/export } }
                limit: 100
                window: 1h
                cost: 50
              - id: acme-only
                match: { http: { path: /api/items/tenant, headers: { X-Tenant: 'acme-*' } } }
                limit: 1
                window: 1h
              - id: staff-exempt
                match: { http: { path: /api/items/staff } }
                limit: 1
                window: 1h
                unless:
                  - principal-roles: [ops]
            """;

    private static final Duration RELOAD_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration TEN_SECONDS = Duration.ofSeconds(10);

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private AttachedJmx jmx;
    private MBeanServerConnection mbeans;

    /** The container under test. */
    abstract TestApp app();

    @BeforeAll
    void start() {
        rules = RulesFile.create("rules.yml");
        rules.write(RULES.formatted(5));
        String marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(app(), getClass().getSimpleName() + "-server", List.of(
                AttachedJmx.markerOption(marker), "-Dlimiter.jmx.delay=0", Agent.option(rules.path()))));
        http = server.http();
        jmx = AttachedJmx.attach(marker);
        mbeans = jmx.connection();
        await("the rule MBeans are registered").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> mbeans.isRegistered(rule("staff-exempt")));
    }

    @AfterAll
    void stop() {
        if (jmx != null) {
            jmx.close();
        }
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    private static ObjectName rule(String id) {
        try {
            return new ObjectName("dev.limiter:type=Rule,name=" + id);
        } catch (Exception e) {
            throw new IllegalArgumentException(id, e);
        }
    }

    Object attr(String ruleId, String attribute) throws Exception {
        return mbeans.getAttribute(rule(ruleId), attribute);
    }

    private long remaining(String ruleId, String key) throws Exception {
        return (Long) mbeans.invoke(rule(ruleId), "remaining", new Object[] {key},
                new String[] {String.class.getName()});
    }

    List<Integer> statuses(int requests, String path, String... headers) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            statuses.add(http.status(path, headers));
        }
        return statuses;
    }

    @Test
    void severalLimitsAreOneDecisionAndARejectedRequestUsesNoBudget() throws Exception {
        // 10 s windows: each burst starts with at least 5 s of its window left, whatever the machine's load
        WindowGuard.awaitRoomInWindow(TEN_SECONDS, Duration.ofSeconds(5));
        List<HttpResponse<String>> first = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            first.add(http.get("/api/items/two"));
        }
        assertThat(first.stream().map(HttpResponse::statusCode)).containsExactly(200, 200, 429, 429, 429);
        HttpResponse<String> refused = first.get(2);
        assertThat(Long.parseLong(refused.headers().firstValue("Retry-After").orElseThrow()))
                .as("the 10 s limit is binding").isBetween(1L, 10L);
        assertThat(refused.headers().firstValue("RateLimit-Policy"))
                .hasValue("\"two-limits.10s\";q=2;w=10, \"two-limits.1h\";q=4;w=3600");
        assertThat(first.get(1).headers().firstValue("RateLimit")).as("least left: the 10 s limit")
                .hasValueSatisfying(value -> assertThat(value).startsWith("\"two-limits.10s\";r=0;"));

        Thread.sleep(TEN_SECONDS.toMillis() - System.currentTimeMillis() % TEN_SECONDS.toMillis() + 50);
        WindowGuard.awaitRoomInWindow(TEN_SECONDS, Duration.ofSeconds(5));
        assertThat(remaining("two-limits", "")).as("the hour keeps what the refused requests did not take")
                .isEqualTo(2);
        List<HttpResponse<String>> second = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            second.add(http.get("/api/items/two"));
        }
        assertThat(second.stream().map(HttpResponse::statusCode)).containsExactly(200, 200, 429);
        HttpResponse<String> hourSpent = second.get(2);
        assertThat(hourSpent.headers().firstValue("RateLimit")).as("now the hour binds")
                .hasValueSatisfying(value -> assertThat(value).startsWith("\"two-limits.1h\";r=0;"));
        assertThat(Long.parseLong(hourSpent.headers().firstValue("Retry-After").orElseThrow()))
                .isGreaterThan(60);
        assertThat(attr("two-limits", "Limits")).isEqualTo("2/10s, 4/1h");
        assertThat(attr("two-limits", "Allowed")).isEqualTo(4L);
        assertThat(attr("two-limits", "Rejected")).isEqualTo(4L);
    }

    @Test
    void plansGiveEachKeyItsTierAndExemptionsCountNowhere() throws Exception {
        assertThat(statuses(3, "/api/items/plans", "X-Api-Key", "k-free")).containsExactly(200, 200, 429);
        assertThat(statuses(6, "/api/items/plans", "X-Api-Key", "k-gold"))
                .containsExactly(200, 200, 200, 200, 200, 429);
        assertThat(statuses(20, "/api/items/plans", "X-Api-Key", "k-internal")).containsOnly(200);
        assertThat(statuses(4, "/api/items/plans", "X-Api-Key", "k-pro", "X-Plan", "pro"))
                .containsExactly(200, 200, 200, 429);
        // the spent free key passes when exempt: from the internal network (via the trusted proxy) or a probe
        assertThat(statuses(4, "/api/items/plans", "X-Api-Key", "k-free", "X-Forwarded-For", "10.1.2.3"))
                .containsOnly(200);
        assertThat(statuses(3, "/api/items/plans", "X-Api-Key", "k-free", "X-Health-Check", "true"))
                .containsOnly(200);
        assertThat(http.status("/api/items/plans", "X-Api-Key", "k-free", "X-Forwarded-For", "192.0.2.1"))
                .as("outside the exempt network").isEqualTo(429);

        assertThat(attr("plans", "Exempt")).isEqualTo(7L);
        assertThat(attr("plans", "Allowed")).isEqualTo(2L + 5 + 20 + 3);
        assertThat(attr("plans", "Rejected")).isEqualTo(4L);
        assertThat((String[]) attr("plans", "Overrides")).containsExactly(
                "gold: keys [k-gold] -> 5/1h (allowed 5, rejected 1, would-reject 0)",
                "internal: keys [k-internal] -> unlimited (allowed 20, rejected 0, would-reject 0)",
                "pro: when headers {X-Plan: 'pro'} -> 3/1h (allowed 3, rejected 1, would-reject 0)");
        assertThat(attr("plans", "Conditions")).isEqualTo(
                "unless ips [10.0.0.0/8]; unless headers {X-Health-Check: 'true'}; cost 1");
        assertThat(remaining("plans", "k-gold")).isZero();
        assertThat(remaining("plans", "k-internal")).isEqualTo(Long.MAX_VALUE);

        // a reload that raises gold's limit keeps what k-gold has spent: two more, not seven
        rules.write(RULES.formatted(7));
        await("gold's new limit is live").atMost(RELOAD_TIMEOUT).pollInterval(Duration.ofMillis(200))
                .until(() -> ((String[]) attr("plans", "Overrides"))[0].startsWith("gold: keys [k-gold] -> 7/1h"));
        assertThat(statuses(3, "/api/items/plans", "X-Api-Key", "k-gold")).containsExactly(200, 200, 429);
        assertThat(((String[]) attr("plans", "Overrides"))[0]).as("its counters survive the reload")
                .isEqualTo("gold: keys [k-gold] -> 7/1h (allowed 7, rejected 2, would-reject 0)");
    }

    @Test
    void aRequestCostingMoreThanIsLeftIsRejectedAndTakesNothing() throws Exception {
        assertThat(statuses(3, "/api/items/export")).containsExactly(200, 200, 429);
        assertThat(remaining("export", "")).isZero();
        assertThat(attr("export", "Conditions")).isEqualTo("cost 50");
    }

    @Test
    void aRuleWithARequestConditionCountsOnlyTheRequestsThatMeetIt() throws Exception {
        assertThat(statuses(3, "/api/items/tenant", "X-Tenant", "other")).containsOnly(200);
        assertThat(statuses(3, "/api/items/tenant")).as("no tenant header").containsOnly(200);
        assertThat(statuses(2, "/api/items/tenant", "X-Tenant", "acme-eu")).containsExactly(200, 429);
        assertThat(attr("acme-only", "Allowed")).isEqualTo(1L);
        assertThat(attr("acme-only", "Exempt")).as("not matched is not exempt").isEqualTo(0L);
    }
}
