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
 * Request conditions on {@code jaxrs:} rules, against Jersey 4 behind its servlet on embedded Tomcat 11 with the
 * agent, over real HTTP and JMX: the woven resource method reads the conditions from the servlet request in
 * flight. A condition in {@code match.jaxrs} (a header, the client's address), {@code unless} exemptions and
 * overrides chosen by {@code when}, each with exact 200/429 counts and the JMX counters.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JaxrsConditionsTomcat11Test {

    static final String RULES = """
            version: 1
            client-ip: { trusted-proxies: [127.0.0.1/32] }
            rules:
              - id: acme-items
                match:
                  jaxrs: { class: dev.limiter.it.jaxrs.ItemsResource, method: list, headers: { X-Tenant: 'acme-*' } }
                limit: 1
                window: 1h
              - id: outside-items
                match: { jaxrs: { class: dev.limiter.it.jaxrs.ItemsResource, method: get, ips: [192.0.2.0/24] } }
                limit: 2
                window: 1h
              - id: search-plans
                match: { jaxrs: { class: dev.limiter.it.jaxrs.ItemsResource, method: search } }
                key: header:X-Api-Key
                limit: 2
                window: 1h
                unless:
                  - ips: [10.0.0.0/8]
                  - headers: { X-Health-Check: 'true' }
                overrides:
                  - name: pro
                    when: { headers: { X-Plan: pro } }
                    limit: 3
                    window: 1h
                  - name: partner
                    when: { ips: [198.51.100.0/24] }
                    unlimited: true
            """;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private AttachedJmx jmx;
    private MBeanServerConnection mbeans;

    @BeforeAll
    void start() {
        rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        String marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(TestApp.JERSEY4_TOMCAT11, getClass().getSimpleName() + "-server",
                List.of(AttachedJmx.markerOption(marker), "-Dlimiter.jmx.delay=0", Agent.option(rules.path()))));
        http = server.http();
        jmx = AttachedJmx.attach(marker);
        mbeans = jmx.connection();
        await("the rule MBeans are registered").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> mbeans.isRegistered(rule("search-plans")));
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

    private Object attr(String ruleId, String attribute) throws Exception {
        return mbeans.getAttribute(rule(ruleId), attribute);
    }

    private List<Integer> statuses(int requests, String path, String... headers) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            statuses.add(http.status(path, headers));
        }
        return statuses;
    }

    @Test
    void aHeaderConditionInTheMatchCountsOnlyTheRequestsThatMeetIt() throws Exception {
        assertThat(statuses(3, "/rest/items", "X-Tenant", "other")).containsOnly(200);
        assertThat(statuses(3, "/rest/items")).as("no tenant header").containsOnly(200);
        assertThat(statuses(3, "/rest/items", "X-Tenant", "acme-eu")).containsExactly(200, 429, 429);
        assertThat(attr("acme-items", "Allowed")).isEqualTo(1L);
        assertThat(attr("acme-items", "Rejected")).isEqualTo(2L);
        assertThat(attr("acme-items", "Exempt")).as("not matched is not exempt").isEqualTo(0L);
    }

    @Test
    void anAddressConditionReadsTheClientBehindTheTrustedProxy() throws Exception {
        assertThat(statuses(3, "/rest/items/a")).as("127.0.0.1 itself is outside the range").containsOnly(200);
        assertThat(statuses(3, "/rest/items/a", "X-Forwarded-For", "192.0.2.7")).containsExactly(200, 200, 429);
        assertThat(statuses(2, "/rest/items/a", "X-Forwarded-For", "203.0.113.9")).containsOnly(200);
        assertThat(attr("outside-items", "Allowed")).isEqualTo(2L);
        assertThat(attr("outside-items", "Rejected")).isEqualTo(1L);
    }

    @Test
    void exemptionsCountNowhereAndOverridesByRequestGiveTheirTier() throws Exception {
        assertThat(statuses(3, "/rest/items/search?q=x", "X-Api-Key", "k-free")).containsExactly(200, 200, 429);
        assertThat(statuses(4, "/rest/items/search?q=x", "X-Api-Key", "k-pro", "X-Plan", "pro"))
                .containsExactly(200, 200, 200, 429);
        assertThat(statuses(5, "/rest/items/search?q=x", "X-Api-Key", "k-partner", "X-Forwarded-For",
                "198.51.100.20")).containsOnly(200);
        // the spent free key passes when exempt: from the internal network (via the trusted proxy) or a probe
        assertThat(statuses(4, "/rest/items/search?q=x", "X-Api-Key", "k-free", "X-Forwarded-For", "10.1.2.3"))
                .containsOnly(200);
        assertThat(statuses(3, "/rest/items/search?q=x", "X-Api-Key", "k-free", "X-Health-Check", "true"))
                .containsOnly(200);
        assertThat(http.status("/rest/items/search?q=x", "X-Api-Key", "k-free", "X-Forwarded-For", "192.0.2.1"))
                .as("outside the exempt network").isEqualTo(429);

        assertThat(attr("search-plans", "Exempt")).isEqualTo(7L);
        assertThat(attr("search-plans", "Allowed")).isEqualTo(2L + 3 + 5);
        assertThat(attr("search-plans", "Rejected")).isEqualTo(3L);
        assertThat((String[]) attr("search-plans", "Overrides")).containsExactly(
                "pro: when headers {X-Plan: 'pro'} -> 3/1h (allowed 3, rejected 1, would-reject 0)",
                "partner: when ips [198.51.100.0/24] -> unlimited (allowed 5, rejected 0, would-reject 0)");
        assertThat(server.output()).as("a servlet container hands the conditions their request")
                .doesNotContain("found no servlet request");
    }
}
