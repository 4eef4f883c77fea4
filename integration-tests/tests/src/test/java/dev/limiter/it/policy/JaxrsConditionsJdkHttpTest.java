package dev.limiter.it.policy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The rules of {@link JaxrsConditionsTomcat11Test} on Jersey 4 on the JDK HTTP server: no servlet request, so no
 * request condition holds (a conditional match counts nothing, an exemption exempts nobody, a {@code when}
 * override never applies), and the agent says so once per resource method.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JaxrsConditionsJdkHttpTest {

    private static final Pattern WARNING = Pattern.compile("request conditions \\(headers, ips, principal-roles\\) of"
            + " rule ([^ ]+) at (\\S+) found no servlet request");

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;

    @BeforeAll
    void start() {
        // the Tomcat test's rules, keyed on the query argument instead of a header the runtime cannot read here
        rules = RulesFile.create("rules.yml");
        rules.write(JaxrsConditionsTomcat11Test.RULES.replace("key: header:X-Api-Key", "key: arg:0"));
        server = servers.track(ForkedServer.start(TestApp.JERSEY4_JDK_HTTP, getClass().getSimpleName() + "-server",
                List.of(Agent.option(rules.path()))));
        http = server.http();
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    @Test
    void noConditionHoldsWithoutAServletRequestAndTheAgentSaysSoOncePerMethod() {
        for (int i = 0; i < 4; i++) {
            assertThat(http.status("/rest/items", "X-Tenant", "acme-eu")).as("the match condition never holds")
                    .isEqualTo(200);
            assertThat(http.status("/rest/items/a", "X-Forwarded-For", "192.0.2.7")).isEqualTo(200);
        }
        // search-plans: no condition in its match, so it counts; 'unless' and 'when' never hold: 2 per key
        assertThat(http.status("/rest/items/search?q=k", "X-Plan", "pro")).isEqualTo(200);
        assertThat(http.status("/rest/items/search?q=k", "X-Health-Check", "true")).isEqualTo(200);
        assertThat(http.status("/rest/items/search?q=k", "X-Health-Check", "true")).as("not exempt").isEqualTo(429);

        server.awaitOutput("found no servlet request", Duration.ofSeconds(10));
        Matcher warnings = WARNING.matcher(server.output());
        List<String> sites = new java.util.ArrayList<>();
        while (warnings.find()) {
            sites.add(warnings.group(1) + " " + warnings.group(2));
        }
        assertThat(sites).containsExactlyInAnyOrder("acme-items dev.limiter.it.jaxrs.ItemsResource#list",
                "outside-items dev.limiter.it.jaxrs.ItemsResource#get",
                "search-plans dev.limiter.it.jaxrs.ItemsResource#search");
    }
}
