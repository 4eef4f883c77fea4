package dev.limiter.it.spi;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RateLimitHeaders;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.io.IOException;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A custom strategy from its own jar limits real HTTP requests through the agent: {@code strategies=} loads the
 * worked sliding-log example of docs/strategies.md (built by core, copied next to the agent jar by the agent
 * module: {@code agent/target/example-strategies/sliding-log.jar}) into a child of the agent's loader before the
 * rules are parsed. Tomcat 11, one JVM for the counting scenarios; the failure modes are checked with the
 * packaged jar's {@code validate} command and a strict start-up, which exit without serving.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class CustomStrategyTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: sliding-log
                match: { http: { path: /api/items/log } }
                key: header:X-Client
                strategy: sliding-log-example
                limit: 3
                window: 1h
            """;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private final Path example = Agent.jar().resolveSibling("example-strategies").resolve("sliding-log.jar");
    private RulesFile rules;
    private ForkedServer server;

    @BeforeAll
    void start() {
        assertThat(example).as("built by the agent module (generate-test-resources)").isRegularFile();
        rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        server = servers.track(ForkedServer.start(TestApp.TOMCAT11_JAKARTA, "CustomStrategyTest-server",
                List.of(Agent.option(rules.path(), "strategies=" + example))));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    @Test
    void theCustomStrategyAdmitsExactlyItsLimitPerKey() {
        // the banner may follow LISTENING: an HTTP-only rules file is parsed on a daemon thread
        server.awaitOutput(Pattern.quote("custom strategies sliding-log-example from [" + example + "]"),
                Duration.ofSeconds(60));
        assertThat(server.output()).contains("started: rules " + rules.path() + ", 1 rule");
        HttpApi http = server.http();
        List<Integer> statuses = new ArrayList<>();
        HttpResponse<String> last = null;
        for (int i = 0; i < 10; i++) {
            last = http.get("/api/items/log", "X-Client", "a");
            statuses.add(last.statusCode());
        }
        assertThat(statuses).containsExactly(200, 200, 200, 429, 429, 429, 429, 429, 429, 429);
        // the oldest of the three admissions leaves the one-hour log in just under an hour
        assertThat(RateLimitHeaders.retryAfter(last)).isBetween(3_500L, 3_600L);
        int admittedForB = 0;
        for (int i = 0; i < 5; i++) {
            if (http.status("/api/items/log", "X-Client", "b") == 200) {
                admittedForB++;
            }
        }
        assertThat(admittedForB).as("another key has its own log").isEqualTo(3);
        assertThat(http.status("/api/items/other", "X-Client", "a")).as("not matched: not limited").isEqualTo(200);
    }

    @Test
    void validateOfThePackagedJarNeedsTheStrategiesOption() throws Exception {
        Command without = validate(List.of(rules.path().toString()));
        assertThat(without.exit).as(without.output).isEqualTo(1);
        assertThat(without.output).contains("unknown strategy 'sliding-log-example'");

        Command with = validate(List.of("--strategies=" + example, rules.path().toString()));
        assertThat(with.exit).as(with.output).isZero();
        assertThat(with.output).contains(rules.path() + ": OK, 1 rule");

        Path missing = rules.path().resolveSibling("missing.jar");
        Command bad = validate(List.of("--strategies=" + missing, rules.path().toString()));
        assertThat(bad.exit).as(bad.output).isEqualTo(2);
        assertThat(bad.output).contains("strategies: " + missing + " does not exist");
    }

    @Test
    void aMissingStrategiesJarIsNamedAndStrictStopsTheJvm() {
        Path missing = rules.path().resolveSibling("missing.jar");
        try (ForkedServer strict = ForkedServer.launch(TestApp.TOMCAT11_JAKARTA, "CustomStrategyTest-strict",
                List.of(Agent.option(rules.path(), "strategies=" + missing, "strict=true")))) {
            assertThat(strict.awaitExit(ForkedServer.START_TIMEOUT)).as(strict.tail(20)).isEqualTo(1);
            assertThat(strict.output()).contains("strategies: " + missing + " does not exist")
                    .contains("strict=true, stopping the JVM")
                    .doesNotContain("LISTENING");
        }
    }

    private record Command(int exit, String output) {
    }

    /** {@code java -jar limiter.jar validate ARGS}, on the JVM the servers run on; stdout and stderr merged. */
    private static Command validate(List<String> args) throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(java(), "-jar", Agent.jar().toString(), "validate"));
        command.addAll(args);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("validate still running after 2 minutes: " + command);
        }
        return new Command(process.exitValue(), output);
    }

    private static String java() {
        String jvm = System.getProperty("limiter.test.jvm", "");
        return jvm.isBlank() ? Path.of(System.getProperty("java.home"), "bin", "java").toString() : jvm;
    }
}
