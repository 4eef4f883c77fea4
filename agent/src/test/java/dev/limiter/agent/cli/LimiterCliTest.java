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
}
