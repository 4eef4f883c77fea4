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
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code java -jar limiter.jar attach} and the errors of every JVM command when the other JVM cannot be used:
 * a server started without the agent gets it and its limits, and each failure has its own exit code and
 * sentence (docs/cli.md, docs/troubleshooting.md).
 */
class CommandLineAttachTest {

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
    final ServerLogs servers = new ServerLogs();

    @Test
    void attachLoadsTheAgentIntoAServerWithoutItAndItsLimitsHold() throws Exception {
        RulesFile rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        String marker = AttachedJmx.newMarker();
        ForkedServer server = servers.track(ForkedServer.start(TestApp.JETTY12_JAKARTA,
                "CommandLineAttachTest-server", List.of(AttachedJmx.markerOption(marker),
                        "-XX:+IgnoreUnrecognizedVMOptions", "-XX:+EnableDynamicAgentLoading")));
        try {
            String pid = Long.toString(AttachedJmx.pidOf(marker));
            HttpApi http = server.http();
            assertThat(http.status("/api/items/before")).isEqualTo(200);

            Cli.Run none = Cli.run("status", pid);
            assertThat(none.exit()).as("%s", none).isEqualTo(7);
            assertThat(none.err()).contains("pid " + pid + " runs no limiter")
                    .contains("java -jar limiter.jar attach " + pid + " rules.yml");

            // a relative path: the command makes it absolute, the server's working directory is not ours
            Path relative = Path.of("").toAbsolutePath().relativize(rules.path());
            Cli.Run attach = Cli.run("attach", pid, relative.toString());
            assertThat(attach.exit()).as("%s", attach).isZero();
            assertThat(attach.out()).startsWith("limiter loaded into pid " + pid + " with rules=" + rules.path());
            server.awaitOutput(Pattern.quote("started: rules " + rules.path() + ", 1 rule"), Duration.ofSeconds(60));

            List<Integer> statuses = new ArrayList<>();
            for (int i = 0; i < 5; i++) {
                statuses.add(http.status("/api/items/after"));
            }
            assertThat(statuses).containsExactly(200, 200, 200, 429, 429);

            Cli.Run[] status = new Cli.Run[1];
            Awaitility.await("status once the MBeans are registered").atMost(Duration.ofSeconds(60))
                    .pollInterval(Duration.ofMillis(500)).until(() -> (status[0] = Cli.run("status", pid)).exit() == 0);
            assertThat(status[0].out().lines().filter(l -> l.startsWith("items ")).findFirst().orElseThrow())
                    .matches("items +http \\* /api/items/\\*\\* +ip +\\S+ +3/1h +enforce +3 +2 +0 +1");

            Cli.Run again = Cli.run("attach", pid, rules.path().toString());
            assertThat(again.exit()).as("%s", again).isEqualTo(6);
            assertThat(again.err()).contains("already loaded").contains("reload " + pid);
            assertThat(server.output()).doesNotContain("limiter is already running", "failed to start");
        } finally {
            server.close();
            rules.delete();
        }
    }

    @Test
    void anAgentWithoutMBeansIsStillSeenAsLoaded() {
        RulesFile rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        String marker = AttachedJmx.newMarker();
        ForkedServer server = servers.track(ForkedServer.start(TestApp.JETTY12_JAKARTA,
                "CommandLineAttachTest-nojmx-server", List.of(AttachedJmx.markerOption(marker), "-Dlimiter.jmx=false",
                        Agent.option(rules.path()))));
        try {
            String pid = Long.toString(AttachedJmx.pidOf(marker));
            assertThat(server.http().status("/api/items/x")).isEqualTo(200);

            Cli.Run status = Cli.run("status", pid);
            assertThat(status.exit()).as("%s", status).isEqualTo(7);
            assertThat(status.err()).contains("pid " + pid + " runs the limiter (" + Agent.jar()
                    + ") but its MBeans are not registered").contains("-Dlimiter.jmx=false");

            // no MBeans to tell it: the agent's system property does
            Cli.Run attach = Cli.run("attach", pid, rules.path().toString());
            assertThat(attach.exit()).as("%s", attach).isEqualTo(6);
            assertThat(attach.err()).contains("already loaded");
            assertThat(server.output()).doesNotContain("limiter is already running");
        } finally {
            server.close();
            rules.delete();
        }
    }

    @Test
    void aJvmWithAttachDisabledIsToldApart() throws Exception {
        Process jvm = new ProcessBuilder(Cli.java().toString(), "-XX:+DisableAttachMechanism", "-Xmx32m", "-cp",
                Path.of(Sleeper.class.getProtectionDomain().getCodeSource().getLocation().toURI()).toString(),
                Sleeper.class.getName()).redirectErrorStream(true).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(jvm.getInputStream(), StandardCharsets.UTF_8));
            assertThat(out.readLine()).isEqualTo("READY");
            String pid = Long.toString(jvm.pid());
            for (String[] command : new String[][] {{"status", pid}, {"attach", pid}, {"disable", pid}}) {
                Cli.Run run = Cli.run(command);
                assertThat(run.exit()).as("%s", run).isEqualTo(5);
                assertThat(run.err()).startsWith("pid " + pid + " refuses to be attached to: it runs with "
                        + "-XX:+DisableAttachMechanism.");
            }
            assertThat(jvm.isAlive()).isTrue();
        } finally {
            jvm.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
        }
    }

    @Test
    void aPidWithoutAProcessIsToldApart() {
        long pid = unusedPid();
        for (String[] command : new String[][] {{"status", "" + pid, "--json"}, {"attach", "" + pid},
            {"mode", "" + pid, "items", "dry-run"}}) {
            Cli.Run run = Cli.run(command);
            assertThat(run.exit()).as("%s", run).isEqualTo(3);
            assertThat(run.err()).startsWith("no process with pid " + pid + " ");
            assertThat(run.out()).isEmpty();
        }
    }

    @Test
    void aProcessOfAnotherUserIsToldApart() throws Exception {
        Path setpriv = Path.of("/usr/bin/setpriv");
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(setpriv) && "root".equals(
                ProcessHandle.current().info().user().orElse("")), "needs root and setpriv to run as nobody");
        long pid = ProcessHandle.current().pid();
        List<String> command = new ArrayList<>(List.of(setpriv.toString(), "--reuid=nobody", "--regid=nogroup",
                "--clear-groups"));
        command.addAll(Cli.command("status", Long.toString(pid)));
        Cli.Run run = Cli.run(command);
        org.junit.jupiter.api.Assumptions.assumeFalse(run.err().contains("Unable to access jarfile")
                || run.err().contains("Permission denied"), "nobody cannot read the jar or the JDK here");
        assertThat(run.exit()).as("%s", run).isEqualTo(4);
        assertThat(run.err()).startsWith("pid " + pid + " belongs to user root and this command runs as nobody");
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
