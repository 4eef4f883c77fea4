package dev.limiter.agent.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
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
                "3 no such process", "5 attach disabled", "6 limiter already loaded", "8 no Attach API");
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

    private static long unusedPid() {
        for (long pid = 4_000_000; pid > 3_000_000; pid -= 7) {
            if (ProcessHandle.of(pid).isEmpty()) {
                return pid;
            }
        }
        throw new IllegalStateException("every pid taken");
    }
}
