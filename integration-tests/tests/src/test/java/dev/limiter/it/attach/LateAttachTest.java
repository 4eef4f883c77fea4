package dev.limiter.it.attach;

import static org.assertj.core.api.Assertions.assertThat;

import com.sun.tools.attach.VirtualMachine;
import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The agent loaded into a running server (agentmain, the manifest's {@code Agent-Class}) instead of at start:
 * the servlets that already served requests are retransformed, and from then on the rules hold exactly as with
 * {@code -javaagent}. The agent is attached the way any tool attaches one (Attach API, {@code loadAgent}).
 */
class LateAttachTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: items
                match: { http: { path: /api/items/** } }
                key: ip
                limit: 3
                window: 1h
            """;

    @RegisterExtension
    static final ServerLogs SERVERS = new ServerLogs();

    @Test
    void servletsLoadedBeforeTheAttachAreLimited() throws Exception {
        RulesFile rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        String marker = AttachedJmx.newMarker();
        ForkedServer server = start("LateAttachTest-server", marker);
        try {
            HttpApi http = server.http();
            for (int i = 0; i < 5; i++) {
                assertThat(http.status("/api/items/before")).as("no agent yet").isEqualTo(200);
            }

            attach(marker, rules);
            server.awaitOutput(Pattern.quote("started: rules " + rules.path() + ", 1 rule"), Duration.ofSeconds(60));

            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                statuses.add(http.status("/api/items/after"));
            }
            assertThat(statuses).containsExactly(200, 200, 200, 429, 429);
            HttpResponse<String> rejected = http.get("/api/items/after");
            assertThat(rejected.statusCode()).isEqualTo(429);
            assertThat(rejected.headers().firstValue("Retry-After")).isPresent();
            assertThat(server.output()).doesNotContain("could not instrument", "failed to start");
        } finally {
            server.close();
            rules.delete();
        }
    }

    private static final String METHOD_RULES = """
            version: 1
            rules:
              - id: api-method
                match: { method: { class: dev.limiter.it.app.ApiServlet, method: doGet } }
                limit: 2
                window: 1h
            """;

    /**
     * A method rule naming a class loaded before the attach: the attach returns once that class is re-woven, says
     * so in the log with the time it took, and every call after it is checked (exactly 2 of a tight loop pass; the
     * rest throw, which the container answers with 500).
     */
    @Test
    void aMethodRuleIsInForceWhenTheAttachReturnsAndSaysSo() throws Exception {
        RulesFile rules = RulesFile.create("rules.yml");
        rules.write(METHOD_RULES);
        String marker = AttachedJmx.newMarker();
        ForkedServer server = start("LateAttachTest-method", marker);
        try {
            HttpApi http = server.http();
            for (int i = 0; i < 3; i++) {
                assertThat(http.status("/api/items/before")).as("no agent yet").isEqualTo(200);
            }

            attach(marker, rules);
            // loadAgent returned: agentmain has woven the loaded servlet; no call from here on goes unchecked
            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 6; i++) {
                statuses.add(http.status("/api/items/after"));
            }
            assertThat(statuses).containsExactly(200, 200, 500, 500, 500, 500);
            server.awaitOutput("the method rules of the late attach at \\S+ are in force after \\d+ ms \\([1-9]\\d*"
                    + " class(es)? woven\\)", Duration.ofSeconds(30));
        } finally {
            server.close();
            rules.delete();
        }
    }

    /** A Jetty 12 server without the agent; Java 21+ warns about agents loaded later unless it allows them. */
    private static ForkedServer start(String name, String marker) {
        return SERVERS.track(ForkedServer.start(TestApp.JETTY12_JAKARTA, name, List.of(AttachedJmx.markerOption(marker),
                "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading")));
    }

    /** Loads the agent into the server marked {@code marker}, as any tool does; returns when agentmain has. */
    private static void attach(String marker, RulesFile rules) throws Exception {
        VirtualMachine vm = VirtualMachine.attach(Long.toString(AttachedJmx.pidOf(marker)));
        try {
            vm.loadAgent(Agent.jar().toString(), "rules=" + rules.path());
        } finally {
            vm.detach();
        }
    }
}
