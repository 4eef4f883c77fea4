package dev.limiter.it.cli;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The command line (docs/cli.md) against a Jetty 12 server with the agent in its own JVM: {@code java -jar
 * limiter.jar ...} run as a third JVM, its output and exit code checked against real HTTP answers and the JMX
 * attributes this JVM reads over its own connection. Every scenario owns a rule and a path, so they share one
 * server; windows are an hour, and the file is not watched ({@code reload.watch: false}), so only the command
 * line reloads it.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CommandLineTest {

    private static final String RULES = """
            version: 1
            reload: { watch: false }
            rules:
              - id: counted
                match: { http: { path: /api/items/counted } }
                key: header:X-Client
                limit: 3
                window: 1h
              - id: json
                match: { http: { path: /api/items/json } }
                key: header:X-Client
                limit: 3
                window: 1h
              - id: hostile
                match: { http: { path: /api/items/hostile } }
                key: param:q
                limit: 1
                window: 1h
              - id: kill
                match: { http: { path: /api/items/kill } }
                limit: 1
                window: 1h
              - id: mode
                match: { http: { path: /api/items/mode } }
                limit: 1
                window: 1h
              - id: reload
                match: { http: { path: /api/items/reload } }
                strategy: fixed-window
                limit: %d
                window: 1h
            """;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private AttachedJmx jmx;
    private MBeanServerConnection mbeans;
    private String pid;

    @BeforeAll
    void start() {
        rules = RulesFile.create("rules.yml");
        rules.write(RULES.formatted(1));
        String marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(TestApp.JETTY12_JAKARTA, "CommandLineTest-server",
                List.of(AttachedJmx.markerOption(marker), "-Dlimiter.jmx.delay=0", Agent.option(rules.path()))));
        http = server.http();
        pid = Long.toString(AttachedJmx.pidOf(marker));
        jmx = AttachedJmx.attach(marker);
        mbeans = jmx.connection();
        Awaitility.await("the limiter MBeans").atMost(Duration.ofSeconds(60)).pollInterval(Duration.ofMillis(100))
                .until(() -> mbeans.isRegistered(rule("reload")));
    }

    @AfterAll
    void stop() {
        if (jmx != null) {
            jmx.close();
        }
        if (server != null) {
            server.close();
        }
        if (rules != null) {
            rules.delete();
        }
    }

    private static ObjectName rule(String id) {
        try {
            return new ObjectName("dev.limiter:type=Rule,name=" + id);
        } catch (Exception e) {
            throw new IllegalArgumentException(id, e);
        }
    }

    private long jmxCount(String id, String attribute) throws Exception {
        return ((Number) mbeans.getAttribute(rule(id), attribute)).longValue();
    }

    private List<Integer> statuses(int requests, String path, String... headers) {
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < requests; i++) {
            statuses.add(http.status(path, headers));
        }
        return statuses;
    }

    private static Cli.Run ok(Cli.Run run) {
        assertThat(run.exit()).as("%s", run).isZero();
        return run;
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> json(Cli.Run run) {
        return (Map<String, Object>) TestJson.parse(ok(run).out().strip());
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> ruleIn(Map<String, Object> status, String id) {
        for (Object each : (List<Object>) status.get("rules")) {
            Map<String, Object> rule = (Map<String, Object>) each;
            if (id.equals(rule.get("id"))) {
                return rule;
            }
        }
        throw new AssertionError("no rule " + id + " in " + status);
    }

    private static String row(Cli.Run run, String id) {
        return run.out().lines().filter(line -> line.startsWith(id + " ")).findFirst()
                .orElseThrow(() -> new AssertionError("no row " + id + " in\n" + run));
    }

    @Test
    void statusShowsTheExactCountsJmxShows() throws Exception {
        assertThat(statuses(5, "/api/items/counted", "X-Client", "a")).containsExactly(200, 200, 200, 429, 429);
        assertThat(statuses(1, "/api/items/counted", "X-Client", "b")).containsExactly(200);

        Cli.Run screen = ok(Cli.run("status", pid));

        assertThat(screen.out()).startsWith("limiter ").contains(" in pid " + pid + ": enabled\n")
                .contains("rules:   6 rules in force from " + rules.path())
                .contains("store:   local");
        assertThat(row(screen, "counted")).matches(
                "counted +http \\* /api/items/counted +header:X-Client +\\S+ +3/1h +enforce +4 +2 +0 +2");
        assertThat(screen.out()).contains("  counted:  a 2");
        assertThat(List.of(jmxCount("counted", "Allowed"), jmxCount("counted", "Rejected"),
                jmxCount("counted", "ActiveKeys"))).containsExactly(4L, 2L, 2L);
        List<String> ids = screen.out().lines().filter(l -> l.matches("(counted|json|hostile|kill|mode|reload) .*"))
                .map(l -> l.substring(0, l.indexOf(' '))).toList();
        assertThat(ids).as("the rules file's order").containsExactly("counted", "json", "hostile", "kill", "mode", "reload");
        assertThat(screen.err()).isEmpty();
    }

    @Test
    @SuppressWarnings("unchecked")
    void statusJsonParsesAndMatchesJmx() throws Exception {
        assertThat(statuses(4, "/api/items/json", "X-Client", "k")).containsExactly(200, 200, 200, 429);

        Map<String, Object> status = json(Cli.run("status", pid, "--json"));

        assertThat(status).containsEntry("pid", Long.parseLong(pid)).containsEntry("enabled", true)
                .containsEntry("rulesFile", rules.path().toString()).containsEntry("ruleCount", 6L);
        Map<String, Object> rule = ruleIn(status, "json");
        assertThat(rule).containsEntry("allowed", 3L).containsEntry("rejected", 1L).containsEntry("activeKeys", 1L)
                .containsEntry("allowed", jmxCount("json", "Allowed"))
                .containsEntry("rejected", jmxCount("json", "Rejected"))
                .containsEntry("activeKeys", jmxCount("json", "ActiveKeys"))
                .containsEntry("limit", 3L).containsEntry("windowMillis", 3_600_000L)
                .containsEntry("key", "header:X-Client")
                .containsEntry("mode", "enforce");
        assertThat((List<Object>) rule.get("topRejectedKeys")).containsExactly(Map.of("key", "k", "count", 1L, "error", 0L));
    }

    @Test
    @SuppressWarnings("unchecked")
    void reloadAfterAnEditChangesTheLimitAndARefusedOneSaysWhy() throws Exception {
        assertThat(statuses(2, "/api/items/reload")).containsExactly(200, 429);

        rules.write(RULES.formatted(5));
        Cli.Run reload = ok(Cli.run("reload", pid));
        assertThat(reload.out()).contains("reloaded " + rules.path() + ": 6 rules in force")
                .contains("pid " + pid + ": 6 rules in force; reloads 1 ok, 0 failed");
        assertThat(jmxCount("reload", "Limit")).isEqualTo(5);
        assertThat(ruleIn(json(Cli.run("status", pid, "--json")), "reload")).containsEntry("limit", 5L);
        assertThat(http.status("/api/items/reload")).isEqualTo(200);

        rules.write(RULES.formatted(-1));
        Cli.Run refused = Cli.run("reload", pid);
        assertThat(refused.exit()).as("%s", refused).isEqualTo(1);
        assertThat(refused.out()).contains("not reloaded, the 6 rules in force stay:").contains("rules.yml:");
        Cli.Run screen = ok(Cli.run("status", pid));
        assertThat(screen.out()).contains("reloads: 1 ok, 1 failed; last load ").contains(" FAILED, the rules in force stay:");
        assertThat(row(screen, "reload")).contains(" 5/1h ");
        Map<String, Object> reloads = (Map<String, Object>) json(Cli.run("status", pid, "--json")).get("reloads");
        assertThat(reloads).containsEntry("lastFailed", true);
        assertThat((String) reloads.get("lastError")).contains("rules.yml:");

        rules.write(RULES.formatted(5));
        ok(Cli.run("reload", pid));
    }

    @Test
    void disableAndEnableSwitchRealRejections() throws Exception {
        assertThat(statuses(2, "/api/items/kill")).containsExactly(200, 429);
        try {
            Cli.Run disable = ok(Cli.run("disable", pid));
            assertThat(disable.out()).isEqualTo("limiter in pid " + pid + ": disabled (every request is allowed), was enabled\n");
            assertThat(mbeans.getAttribute(new ObjectName("dev.limiter:type=Limiter"), "Enabled")).isEqualTo(false);
            assertThat(statuses(2, "/api/items/kill")).containsExactly(200, 200);
            assertThat(ok(Cli.run("status", pid)).out()).contains(": DISABLED (kill switch thrown");
        } finally {
            Cli.Run enable = ok(Cli.run("enable", pid));
            assertThat(enable.out()).isEqualTo("limiter in pid " + pid + ": enabled, was disabled\n");
        }
        assertThat(statuses(1, "/api/items/kill")).containsExactly(429);
    }

    @Test
    void modeDryRunLetsRequestsThroughAndFileGoesBack() throws Exception {
        assertThat(statuses(2, "/api/items/mode")).containsExactly(200, 429);

        Cli.Run dryRun = ok(Cli.run("mode", pid, "mode", "dry-run"));
        assertThat(dryRun.out()).isEqualTo("rule mode in pid " + pid + ": mode dry-run, was enforce; the rules file says enforce\n");
        assertThat(statuses(2, "/api/items/mode")).containsExactly(200, 200);
        Cli.Run screen = ok(Cli.run("status", pid));
        assertThat(row(screen, "mode")).contains(" dry-run (file: enforce) ");
        assertThat(jmxCount("mode", "WouldReject")).isEqualTo(2);
        assertThat(row(screen, "mode").split(" +")).endsWith(Long.toString(jmxCount("mode", "Allowed")),
                Long.toString(jmxCount("mode", "Rejected")), "2", Long.toString(jmxCount("mode", "ActiveKeys")));

        Cli.Run back = ok(Cli.run("mode", pid, "mode", "file"));
        assertThat(back.out()).contains("mode enforce, was dry-run");
        assertThat(statuses(1, "/api/items/mode")).containsExactly(429);
    }

    @Test
    @SuppressWarnings("unchecked")
    void aKeyThatCarriesTerminalEscapesIsShownEscapedAndRoundTripsInJson() {
        // ?q=ESC[2J (clear screen) CR LF "\: the key is client text
        String query = "?q=%1B%5B2J%0D%0Ax%22%5C";
        assertThat(statuses(3, "/api/items/hostile" + query)).containsExactly(200, 429, 429);

        Cli.Run screen = ok(Cli.run("status", pid));
        assertThat(screen.out()).contains("  hostile:  \\u001b[2J\\u000d\\u000ax\"\\\\ 2")
                .doesNotContain("\u001b", "\r");
        Map<String, Object> rule = ruleIn(json(Cli.run("status", pid, "--json")), "hostile");
        assertThat((List<Object>) rule.get("topRejectedKeys")).containsExactly(
                Map.of("key", "\\u001b[2J\\u000d\\u000ax\"\\\\", "count", 2L, "error", 0L));
    }

    @Test
    void anUnknownRuleIsRefusedWithTheRuleIds() {
        Cli.Run run = Cli.run("mode", pid, "nope", "dry-run");
        assertThat(run.exit()).as("%s", run).isEqualTo(1);
        assertThat(run.err()).isEqualTo("no rule 'nope' in pid " + pid + "; its rules: counted, json, hostile, kill, mode, reload\n");
    }

    @Test
    void attachingASecondTimeLoadsNothingAndSaysHowToReload() {
        Cli.Run run = Cli.run("attach", pid, rules.path().toString());
        assertThat(run.exit()).as("%s", run).isEqualTo(6);
        assertThat(run.err()).contains("the limiter is already loaded in pid " + pid + " (from " + Agent.jar() + ")")
                .contains("java -jar limiter.jar reload " + pid);
        assertThat(server.output()).doesNotContain("limiter is already running");
    }

    @Test
    void watchPrintsSuccessiveBlocksIntoAPipe() throws Exception {
        Process watch = new ProcessBuilder(Cli.command("status", pid, "--watch", "0.5")).redirectErrorStream(true)
                .start();
        List<String> headers = new ArrayList<>();
        StringBuilder all = new StringBuilder();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(watch.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            while (headers.size() < 3 && (line = out.readLine()) != null) {
                all.append(line).append('\n');
                if (line.startsWith("every 0.5 s, ")) {
                    headers.add(line);
                }
            }
        } finally {
            watch.destroy();
            watch.waitFor(10, TimeUnit.SECONDS);
        }
        assertThat(headers).as(all.toString()).hasSize(3);
        assertThat(all.toString()).doesNotContain("\u001b").contains("\n\nevery 0.5 s, ");
        assertThat(all.toString().lines().filter(l -> l.matches("limiter .* in pid " + pid + ": enabled"))).hasSizeGreaterThanOrEqualTo(2);
    }
}
