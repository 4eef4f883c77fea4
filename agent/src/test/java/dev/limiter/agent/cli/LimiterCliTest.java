package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.lang.management.ManagementFactory;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import javax.management.remote.JMXAuthenticator;
import javax.management.remote.JMXConnectorServer;
import javax.management.remote.JMXConnectorServerFactory;
import javax.management.remote.JMXServiceURL;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class LimiterCliTest {

    @TempDir
    Path dir;

    private final ByteArrayOutputStream out = new ByteArrayOutputStream();
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private int run(String... args) {
        return LimiterCli.run(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
    }

    private String out() {
        return out.toString(StandardCharsets.UTF_8);
    }

    private String err() {
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void validRulesPrintOneLinePerRuleAndExitZero() throws Exception {
        Path rules = dir.resolve("rules.yml");
        Files.writeString(rules, """
                version: 1
                rules:
                  - id: api
                    match: { http: { path: /api/** } }
                    limit: 100
                    window: 1m
                  - id: login
                    match: { http: { path: /login, methods: [POST] } }
                    key: ip
                    limit: 5
                    window: 1m
                """);
        assertThat(run("validate", rules.toString())).isZero();
        assertThat(out().lines()).hasSize(3);
        assertThat(out()).startsWith("api").contains("\nlogin").endsWith(rules + ": OK, 2 rules\n");
        assertThat(err()).isEmpty();
    }

    @Test
    void invalidRulesPrintEveryErrorWithItsPositionAndExitOne() throws Exception {
        Path rules = dir.resolve("bad.yml");
        Files.writeString(rules, """
                version: 1
                rules:
                  - id: api
                    match: { http: { path: /api/** } }
                    limit: -1
                    window: 1m
                  - id: other
                    match: { http: { path: /x } }
                    limit: 5
                    window: 1m
                    strategy: token-buckett
                """);
        assertThat(run("validate", rules.toString())).isEqualTo(1);
        assertThat(err().lines().filter(line -> line.matches(".*bad\\.yml:\\d+:\\d+: .*")))
                .hasSizeGreaterThanOrEqualTo(2);
        assertThat(err()).contains("bad.yml:5:").contains("bad.yml:11:");
        assertThat(out()).isEmpty();
    }

    @Test
    void aMissingFileIsAnErrorNotACrash() {
        assertThat(run("validate", dir.resolve("nope.yml").toString())).isEqualTo(1);
        assertThat(err()).contains("nope.yml:1:1: ");
    }

    @Test
    void usageMistakesExitTwo() {
        assertThat(run()).isEqualTo(2);
        assertThat(run("validate")).isEqualTo(2);
        assertThat(run("frobnicate")).isEqualTo(2);
        assertThat(err()).contains("unknown command 'frobnicate'").contains("usage:");
        assertThat(run("help")).isZero();
    }

    @Test
    void helpListsEveryCommandAndTheExitCodes() {
        assertThat(run("help")).isZero();
        assertThat(out()).contains("validate RULES.yml", "attach PID", "status PID [--json] [--watch [SECONDS]]",
                "reload PID", "enable PID | disable PID", "mode PID RULE enforce|dry-run|file", "jfc", "Exit codes: 0 ok",
                "3 no such process", "5 attach disabled", "6 limiter already loaded", "8 no Attach API",
                "status --jmx HOST:PORT|service:jmx:URL [--jmx-user NAME]", "9 the --jmx address");
    }

    @Test
    void jvmCommandsCheckTheirArgumentsBeforeAttaching() {
        assertThat(run("status")).isEqualTo(2);
        assertThat(err()).contains("missing PID");
        assertThat(run("status", "twelve")).isEqualTo(2);
        assertThat(run("reload")).isEqualTo(2);
        assertThat(run("enable", "1", "2")).isEqualTo(2);
        assertThat(run("mode", "1", "rule")).isEqualTo(2);
        assertThat(run("mode", "1", "rule", "off")).isEqualTo(2);
        assertThat(err()).contains("'off' is not a mode: enforce, dry-run, file");
        assertThat(run("attach")).isEqualTo(2);
        assertThat(run("attach", "1", dir.resolve("missing.yml").toString())).isEqualTo(1);
        assertThat(err()).contains("no rules file");
    }

    @Test
    void attachChecksTheAgentArgumentAndTheRulesBeforeAttaching() throws Exception {
        Path bad = dir.resolve("bad.yml");
        Files.writeString(bad, """
                version: 1
                rules:
                  - id: api
                    match: { http: { path: /api/** } }
                    limit: -1
                    window: 1m
                """);
        long pid = unusedPid();
        assertThat(run("attach", Long.toString(pid), bad.toString())).isEqualTo(1);
        assertThat(err()).contains("bad.yml:5:").contains("not attached: " + bad + " has 1 error; fix it first");

        Path good = dir.resolve("good.yml");
        Files.writeString(good, "version: 1\nrules: []\n");
        assertThat(run("attach", Long.toString(pid), "rules=" + good + ",strikt=true")).isEqualTo(2);
        assertThat(err()).contains("not attached: unknown agent argument 'strikt'");

        assertThat(run("attach", Long.toString(pid), good.toString())).as("checked, then the pid").isEqualTo(3);
    }

    @Test
    void aPidWithoutAProcessExitsThree() {
        long pid = unusedPid();
        assertThat(run("status", Long.toString(pid))).isEqualTo(3);
        assertThat(err()).contains("no process with pid " + pid);
        assertThat(run("disable", Long.toString(pid))).isEqualTo(3);
    }

    @Test
    void ourOwnPidIsAUsageError() {
        assertThat(run("status", Long.toString(ProcessHandle.current().pid()))).isEqualTo(2);
        assertThat(err()).contains("this command's own JVM");
    }

    @Test
    void jmxAddressesAreCheckedBeforeConnecting() {
        assertThat(run("status", "--jmx")).isEqualTo(2);
        assertThat(err()).contains("--jmx needs a value");
        assertThat(run("status", "--jmx", "somewhere")).isEqualTo(2);
        assertThat(err()).contains("--jmx takes HOST:PORT");
        assertThat(run("status", "12", "--jmx", "localhost:9010")).isEqualTo(2);
        assertThat(err()).contains("not both");
        assertThat(run("status", "12", "--jmx-user", "ops")).isEqualTo(2);
        assertThat(err()).contains("--jmx-user goes with --jmx");
        assertThat(run("enable", "--jmx", "localhost:9010", "12")).isEqualTo(2);
        assertThat(run("mode", "--jmx", "localhost:9010", "rule")).isEqualTo(2);
    }

    @Test
    void aJmxPortWhereNothingListensExitsNine() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        assertThat(run("status", "--jmx", "127.0.0.1:" + port)).isEqualTo(9);
        assertThat(err()).contains("nothing answers at service:jmx:rmi:///jndi/rmi://127.0.0.1:" + port + "/jmxrmi")
                .contains("-Dcom.sun.management.jmxremote.port");
        assertThat(run("disable", "--jmx=127.0.0.1:" + port)).isEqualTo(9);
    }

    @Test
    void aJmxConnectorWithoutTheLimiterExitsSevenAndOneThatRefusesTheUserExitsNine() throws Exception {
        JMXConnectorServer open = connectorServer(null);
        JMXConnectorServer guarded = connectorServer(credentials -> {
            throw new SecurityException("Authentication failed! Invalid username or password");
        });
        try {
            assertThat(run("status", "--jmx", open.getAddress().toString(), "--json")).isEqualTo(7);
            assertThat(err()).contains("pid " + ProcessHandle.current().pid() + " at " + open.getAddress())
                    .contains("has no dev.limiter MBeans");
            assertThat(run("mode", "--jmx", open.getAddress().toString(), "rule", "enforce")).isEqualTo(7);

            assertThat(run("status", "--jmx", guarded.getAddress().toString())).isEqualTo(9);
            assertThat(err()).contains("refused the connection").contains("--jmx-user NAME");
        } finally {
            open.stop();
            guarded.stop();
        }
    }

    /** A real RMI connector on the loopback, over this JVM's platform MBean server (no limiter MBeans in it). */
    private static JMXConnectorServer connectorServer(JMXAuthenticator authenticator) throws Exception {
        Map<String, Object> environment = new HashMap<>();
        if (authenticator != null) {
            environment.put(JMXConnectorServer.AUTHENTICATOR, authenticator);
        }
        JMXConnectorServer server = JMXConnectorServerFactory.newJMXConnectorServer(
                new JMXServiceURL("service:jmx:rmi://127.0.0.1"), environment,
                ManagementFactory.getPlatformMBeanServer());
        server.start();
        return server;
    }

    private static long unusedPid() {
        for (long pid = 4_000_000; pid > 3_000_000; pid -= 7) {
            if (ProcessHandle.of(pid).isEmpty()) {
                return pid;
            }
        }
        throw new IllegalStateException("every pid taken");
    }
}
