package dev.limiter.it.jmx;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import javax.management.Attribute;
import javax.management.MBeanServerConnection;
import javax.management.Notification;
import javax.management.NotificationListener;
import javax.management.ObjectName;
import javax.management.openmbean.CompositeData;
import javax.management.openmbean.TabularData;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * JMX end to end (docs/jmx.md): a Jetty 12 server with the agent in its own JVM, and this JVM attached to it as JConsole
 * would be (Attach API, local connector), reading and writing the MBeans by name only (the test has none of the
 * agent's classes). Every scenario owns a rule and a path, so they share one server; windows are an hour, so
 * nothing resets during a run. The file is not watched ({@code reload.watch: false}): only JMX reloads it here,
 * which makes the reload counts exact.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Jetty12JmxTest {

    private static final Duration JMX_TIMEOUT = Duration.ofSeconds(60);
    private static final String RULES = """
            version: 1
            reload: { watch: false }
            rules:
              - id: counted
                match: { http: { path: /api/items/counted } }
                key: header:X-Client
                limit: 3
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
                limit: %d
                window: 1h
            """;
    private static final String ADDED = """
              - id: added
                match: { http: { path: /api/items/added } }
                limit: 1
                window: 1h
            """;

    private static final ObjectName LIMITER = name("dev.limiter:type=Limiter");
    private static final ObjectName RUNTIME = name("java.lang:type=Runtime");

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private AttachedServer attached;
    private RulesFile rules;
    private ForkedServer server;
    private HttpApi http;
    private MBeanServerConnection mbeans;

    @BeforeAll
    void startAndAttach() {
        attached = AttachedServer.start(servers, "Jetty12JmxTest", RULES.formatted(1), LIMITER, rule("reload"));
        rules = attached.rules;
        server = attached.server;
        http = attached.http;
        mbeans = attached.mbeans;
    }

    @AfterAll
    void stop() {
        if (attached != null) {
            attached.close();
        }
    }

    private static ObjectName name(String text) {
        return AttachedServer.name(text);
    }

    private static ObjectName rule(String id) {
        return AttachedServer.rule(id);
    }

    private Object attr(ObjectName name, String attribute) throws Exception {
        return mbeans.getAttribute(name, attribute);
    }

    private void set(ObjectName name, String attribute, Object value) throws Exception {
        mbeans.setAttribute(name, new Attribute(attribute, value));
    }

    private Object invoke(ObjectName name, String operation, String... args) throws Exception {
        String[] signature = new String[args.length];
        java.util.Arrays.fill(signature, String.class.getName());
        return mbeans.invoke(name, operation, args, signature);
    }

    private int status(String path, String... headers) {
        return http.status(path, headers);
    }

    @Test
    void theLimiterMBeanDescribesTheAgent() throws Exception {
        assertThat(attr(LIMITER, "RulesFile")).isEqualTo(rules.path().toAbsolutePath().toString());
        assertThat((String) attr(LIMITER, "Version")).isNotBlank().isNotEqualTo("unknown");
        assertThat((Integer) attr(LIMITER, "WovenTypes")).as("Jetty's servlets and the app's filter are woven")
                .isGreaterThan(0);
        assertThat(attr(rule("counted"), "Match")).isEqualTo("http * /api/items/counted");
        assertThat(attr(rule("counted"), "Key")).isEqualTo("header:X-Client");
        assertThat(attr(rule("counted"), "WindowMillis")).isEqualTo(3_600_000L);
        assertThat(attr(rule("counted"), "Id")).isEqualTo("counted");
        assertThat(attr(rule("counted"), "Strategy")).as("the built-in default").isEqualTo("fixed-window");
        assertThat(attr(rule("counted"), "Limit")).isEqualTo(3L);
        assertThat(attr(rule("counted"), "Capacity")).as("a fixed window's capacity is its limit").isEqualTo(3L);
        assertThat(attr(rule("counted"), "FileMode")).isEqualTo("enforce");
        assertThat(attr(LIMITER, "InternalErrors")).isEqualTo(0L);

        // an ISO-8601 instant of the last load; both JVMs read this machine's clock (the server's in millis)
        Instant loaded = Instant.parse((String) attr(LIMITER, "LastReloadTime"));
        assertThat(loaded).isBeforeOrEqualTo(Instant.now());
        await("a millisecond after the last load").atMost(JMX_TIMEOUT)
                .until(() -> Instant.now().truncatedTo(ChronoUnit.MILLIS).isAfter(loaded));
        Instant asked = Instant.now().truncatedTo(ChronoUnit.MILLIS);
        assertThat((String) invoke(LIMITER, "reload")).startsWith("reloaded ");
        Instant answered = Instant.now();
        Instant reloaded = Instant.parse((String) attr(LIMITER, "LastReloadTime"));
        assertThat(reloaded).as("LastReloadTime moves forward with a reload").isAfter(loaded)
                .isBetween(asked, answered);
    }

    @Test
    void countersEqualTheStatusCodesTheClientsSaw() throws Exception {
        int ok = 0;
        int limited = 0;
        String[] clients = {"a", "a", "b", "a", "a", "a", "b", "a"};
        for (String client : clients) {
            int status = status("/api/items/counted", "X-Client", client);
            if (status == 200) {
                ok++;
            } else if (status == 429) {
                limited++;
            }
        }
        assertThat(ok).isEqualTo(5);
        assertThat(limited).isEqualTo(3);

        ObjectName counted = rule("counted");
        assertThat(attr(counted, "Allowed")).isEqualTo((long) ok);
        assertThat(attr(counted, "Rejected")).isEqualTo((long) limited);
        assertThat(attr(counted, "WouldReject")).isEqualTo(0L);
        assertThat(attr(counted, "Errors")).isEqualTo(0L);
        assertThat(attr(counted, "ActiveKeys")).isEqualTo(2);
        assertThat(invoke(counted, "remaining", "a")).isEqualTo(0L);
        assertThat(invoke(counted, "remaining", "b")).isEqualTo(1L);
        CompositeData[] top = (CompositeData[]) attr(counted, "TopRejectedKeys");
        assertThat(top).hasSize(1);
        assertThat(top[0].get("key")).isEqualTo("a");
        assertThat(top[0].get("count")).isEqualTo(3L);

        invoke(counted, "resetKey", "a");
        assertThat(status("/api/items/counted", "X-Client", "a")).as("a full budget after resetKey").isEqualTo(200);
        assertThat(attr(counted, "Allowed")).as("resetKey keeps the counters").isEqualTo((long) ok + 1);

        invoke(counted, "reset");
        assertThat(attr(counted, "Allowed")).isEqualTo(0L);
        assertThat(attr(counted, "Rejected")).isEqualTo(0L);
        assertThat(attr(counted, "ActiveKeys")).isEqualTo(0);
        assertThat((CompositeData[]) attr(counted, "TopRejectedKeys")).isEmpty();
        assertThat(invoke(counted, "remaining", "a")).as("every key starts with a full budget").isEqualTo(3L);
        assertThat(status("/api/items/counted", "X-Client", "a")).isEqualTo(200);
        assertThat(attr(counted, "Allowed")).as("counted from zero after reset").isEqualTo(1L);
        assertThat(attr(counted, "Rejected")).isEqualTo(0L);
        assertThat(attr(counted, "ActiveKeys")).isEqualTo(1);
    }

    @Test
    void theKillSwitchStopsRejectionsAtOnceAndReenablingBringsThemBack() throws Exception {
        assertThat(status("/api/items/kill")).isEqualTo(200);
        assertThat(status("/api/items/kill")).isEqualTo(429);

        set(LIMITER, "Enabled", false);
        try {
            for (int i = 0; i < 3; i++) {
                assertThat(status("/api/items/kill")).as("request %d with the limiter disabled", i + 1)
                        .isEqualTo(200);
            }
            assertThat(attr(LIMITER, "Enabled")).isEqualTo(false);
        } finally {
            set(LIMITER, "Enabled", true);
        }
        assertThat(status("/api/items/kill")).isEqualTo(429);
        assertThat(attr(rule("kill"), "Allowed")).isEqualTo(1L);
        assertThat(attr(rule("kill"), "Rejected")).as("nothing is counted while disabled").isEqualTo(2L);
    }

    @Test
    void dryRunModeStopsRejectionsAndCountsWhatItWouldHaveRejected() throws Exception {
        ObjectName mode = rule("mode");
        assertThat(status("/api/items/mode")).isEqualTo(200);
        assertThat(status("/api/items/mode")).isEqualTo(429);

        set(mode, "Mode", "dry-run");
        assertThat(attr(mode, "Mode")).isEqualTo("dry-run");
        assertThat(attr(mode, "FileMode")).as("the file still says enforce").isEqualTo("enforce");
        for (int i = 0; i < 4; i++) {
            assertThat(status("/api/items/mode")).as("dry-run request %d", i + 1).isEqualTo(200);
        }
        assertThat(attr(mode, "WouldReject")).isEqualTo(4L);
        assertThat(attr(mode, "Rejected")).isEqualTo(1L);

        set(mode, "Mode", "enforce");
        assertThat(status("/api/items/mode")).isEqualTo(429);
        assertThat(attr(mode, "Rejected")).isEqualTo(2L);
    }

    @Test
    void reloadThroughJmxAppliesTheFileRefusesABrokenOneAndNotifies() throws Exception {
        List<Notification> received = new CopyOnWriteArrayList<>();
        NotificationListener listener = (notification, handback) -> received.add(notification);
        mbeans.addNotificationListener(LIMITER, listener, null, null);
        try {
            assertThat(status("/api/items/reload")).isEqualTo(200);
            assertThat(status("/api/items/reload")).isEqualTo(429);
            long reloadsBefore = (Long) attr(LIMITER, "ReloadCount");
            long failedBefore = (Long) attr(LIMITER, "FailedReloadCount");

            // a changed file: a higher limit and a new rule; validate checks it and applies nothing
            rules.write(RULES.formatted(3) + ADDED);
            assertThat((String) invoke(LIMITER, "validate"))
                    .isEqualTo("valid: " + rules.path().toAbsolutePath() + ", 5 rules");
            assertThat(attr(LIMITER, "RuleCount")).isEqualTo(4);
            assertThat(mbeans.isRegistered(rule("added"))).isFalse();
            assertThat(attr(LIMITER, "ReloadCount")).isEqualTo(reloadsBefore);
            assertThat((String) invoke(LIMITER, "reload")).startsWith("reloaded ").contains("5 rules in force");
            assertThat(attr(LIMITER, "ReloadCount")).isEqualTo(reloadsBefore + 1);
            assertThat(attr(LIMITER, "RuleCount")).isEqualTo(5);
            assertThat(attr(LIMITER, "LastReloadError")).isEqualTo("");
            assertThat(mbeans.isRegistered(rule("added"))).isTrue();
            assertThat(attr(rule("reload"), "Limit")).isEqualTo(3L);
            assertThat(attr(rule("reload"), "Allowed")).as("counters survive the reload").isEqualTo(1L);
            assertThat(status("/api/items/reload")).as("the new limit is in force").isEqualTo(200);
            assertThat(status("/api/items/reload")).isEqualTo(200);
            assertThat(status("/api/items/reload")).isEqualTo(429);
            assertThat(status("/api/items/added")).isEqualTo(200);
            assertThat(status("/api/items/added")).isEqualTo(429);

            // a broken file: refused, reported, the rules in force keep working
            String broken = RULES.formatted(0) + ADDED;
            int brokenLine = lineOf(broken, "limit: 0");
            rules.write(broken);
            assertThat((String) invoke(LIMITER, "validate")).startsWith("invalid: ")
                    .contains("rules.yml:" + brokenLine + ":");
            String outcome = (String) invoke(LIMITER, "reload");
            assertThat(outcome).startsWith("not reloaded, the 5 rules in force stay:")
                    .contains("rules.yml:" + brokenLine + ":");
            assertThat((String) attr(LIMITER, "LastReloadError")).contains("rules.yml:" + brokenLine + ":");
            assertThat(attr(LIMITER, "ReloadCount")).isEqualTo(reloadsBefore + 1);
            assertThat(attr(LIMITER, "FailedReloadCount")).as("validate counts nothing, the refused reload one")
                    .isEqualTo(failedBefore + 1);
            assertThat(attr(rule("reload"), "Limit")).isEqualTo(3L);
            assertThat(status("/api/items/reload")).as("the old rules still reject").isEqualTo(429);
            assertThat(status("/api/items/added")).isEqualTo(429);

            // back to a file without the new rule: its MBean goes away
            rules.write(RULES.formatted(3));
            assertThat((String) invoke(LIMITER, "reload")).startsWith("reloaded ");
            assertThat(mbeans.isRegistered(rule("added"))).isFalse();
            assertThat(attr(LIMITER, "LastReloadError")).isEqualTo("");
            assertThat(attr(LIMITER, "FailedReloadCount")).isEqualTo(failedBefore + 1);

            await("three reload notifications").atMost(JMX_TIMEOUT).until(() -> received.size() >= 3);
            assertThat(received).extracting(Notification::getType).containsExactly(
                    "dev.limiter.reload.success", "dev.limiter.reload.failure", "dev.limiter.reload.success");
            assertThat((String) received.get(1).getUserData()).contains("rules.yml:" + brokenLine + ":");
        } finally {
            mbeans.removeNotificationListener(LIMITER, listener);
        }
    }

    /**
     * The JMX a console sees is the JDK's: the agent registers MBeans and opens no connector (docs/jmx.md). The
     * forked server listens on its HTTP port and, since this test attached, on the JDK's local connector port;
     * on nothing else. Linux only: the sockets are read from procfs.
     */
    @Test
    void theAgentOpensNoConnectorPortOfItsOwn() throws Exception {
        assumeTrue(ListeningPorts.supported(), "listening sockets are read from Linux's /proc");
        String[] arguments = (String[]) attr(RUNTIME, "InputArguments");
        assertThat(arguments).as("the server was not asked for the JDK's remote connector")
                .noneMatch(argument -> argument.contains("jmxremote"));
        TabularData properties = (TabularData) attr(RUNTIME, "SystemProperties");
        assertThat(properties.values()).as("nor did the agent ask for it through system properties")
                .noneMatch(row -> ((CompositeData) row).get("key").toString()
                        .startsWith("com.sun.management.jmxremote"));

        long pid = (Long) attr(RUNTIME, "Pid");
        int jdkConnector = JdkLocalConnector.port(pid);
        assertThat(jdkConnector).as("the JDK's local connector").isNotEqualTo(server.port());
        assertThat(ListeningPorts.of(pid)).as("TCP ports pid %d listens on (HTTP %d, JDK local JMX %d)", pid,
                server.port(), jdkConnector).containsExactlyInAnyOrder(server.port(), jdkConnector);
    }

    private static int lineOf(String text, String fragment) {
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            if (lines.get(i).contains(fragment)) {
                return i + 1;
            }
        }
        throw new IllegalArgumentException(fragment);
    }
}
