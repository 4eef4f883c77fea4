package dev.limiter.it.deploy;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.HttpApi;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The image recipe's start (examples/docker/Dockerfile): the agent reaches the JVM through the environment
 * variable {@code JAVA_TOOL_OPTIONS}, set to the Dockerfile's own value with its image paths pointing at this
 * build's jar and a rules file of the test's, and the JVM's command line carries no {@code -javaagent} at all.
 * A forked Tomcat 11 then limits requests exactly as with the option. The command line run beside it in the same
 * environment, as {@code kubectl exec} runs it in the container, gets the agent from the variable too, which
 * sees that its JVM runs the jar's own command line and does not start; the command reads the server, with or
 * without the variable ({@code env -u JAVA_TOOL_OPTIONS}).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class JavaToolOptionsTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: tool-options
                match: { http: { path: /api/items/tool/** } }
                key: global
                limit: 3
                window: 1h
            """;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private final String marker = AttachedJmx.newMarker();
    private RulesFile rules;
    private String javaToolOptions;
    private ForkedServer server;

    @BeforeAll
    void start() {
        rules = RulesFile.create("rules.yml");
        rules.write(RULES);
        String dockerfileValue = DeployExamples.dockerfileJavaToolOptions();
        assertThat(dockerfileValue).isEqualTo("-javaagent:/opt/limiter/limiter.jar=/etc/limiter/rules.yml");
        javaToolOptions = DeployExamples.localized(dockerfileValue, Agent.jar(), rules.path().getParent(), 0);
        server = servers.track(ForkedServer.start(TestApp.TOMCAT11_JAKARTA, "JavaToolOptionsTest-server",
                List.of(AttachedJmx.markerOption(marker)), Map.of("JAVA_TOOL_OPTIONS", javaToolOptions)));
    }

    @AfterAll
    void stop() {
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    @Test
    void theAgentFromJavaToolOptionsLimitsExactly() {
        // an HTTP-only rules file is parsed on a daemon thread: the banner may follow LISTENING
        server.awaitOutput("limiter \\S+ started: rules " + Pattern.quote(rules.path() + ", 1 rule"),
                Duration.ofSeconds(60));
        String output = server.output();
        String commandLine = output.lines().findFirst().orElseThrow();
        assertThat(commandLine).as("the agent comes from the environment only").doesNotContain(" -javaagent:");
        assertThat(output).contains("Picked up JAVA_TOOL_OPTIONS: " + javaToolOptions);
        assertThat(output.indexOf("Picked up JAVA_TOOL_OPTIONS"))
                .as("the JVM reads the variable before the agent starts")
                .isLessThan(output.indexOf(" started: rules "));

        HttpApi http = server.http();
        List<Integer> statuses = new ArrayList<>();
        for (int i = 0; i < 7; i++) {
            statuses.add(http.status("/api/items/tool/" + i));
        }
        assertThat(statuses).containsExactly(200, 200, 200, 429, 429, 429, 429);
        assertThat(statuses.stream().filter(status -> status == 200)).hasSize(3);
        assertThat(statuses.stream().filter(status -> status == 429)).hasSize(4);
        assertThat(http.status("/api/hello")).as("not matched: not limited").isEqualTo(200);
    }

    @Test
    void theCommandLineInTheContainersEnvironmentStartsNoAgentOfItsOwn() throws Exception {
        server.awaitOutput(" started: rules ", Duration.ofSeconds(60));
        server.http().status("/api/warm-up"); // the MBeans register once the first request has ended
        long pid = AttachedJmx.pidOf(marker);

        Command inherited = status(pid, javaToolOptions);
        assertThat(inherited.exit()).as(inherited.output()).isZero();
        assertThat(inherited.output()).contains(" in pid " + pid + ": enabled", "tool-options")
                .as("the command's own JVM picks up the variable, but its agent does not start there")
                .contains("Picked up JAVA_TOOL_OPTIONS").doesNotContain(" started: rules ")
                .doesNotContain("limiter: ");

        Command unset = status(pid, null);
        assertThat(unset.exit()).as(unset.output()).isZero();
        assertThat(unset.output()).contains(" in pid " + pid + ": enabled", "tool-options")
                .doesNotContain("Picked up JAVA_TOOL_OPTIONS").doesNotContain(" started: rules ");
    }

    private record Command(int exit, String output) {
    }

    /** {@code java -jar limiter.jar status PID} with {@code JAVA_TOOL_OPTIONS} set to {@code options}, or unset. */
    private static Command status(long pid, String options) throws IOException, InterruptedException {
        ProcessBuilder builder = new ProcessBuilder(java(), "-jar", Agent.jar().toString(), "status",
                Long.toString(pid)).redirectErrorStream(true);
        builder.environment().remove("JAVA_TOOL_OPTIONS");
        if (options != null) {
            builder.environment().put("JAVA_TOOL_OPTIONS", options);
        }
        Process process = builder.start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(2, TimeUnit.MINUTES)) {
            process.destroyForcibly();
            throw new AssertionError("status still running after 2 minutes");
        }
        return new Command(process.exitValue(), output);
    }

    private static String java() {
        String jvm = System.getProperty("limiter.test.jvm", "");
        return jvm.isBlank() ? Path.of(System.getProperty("java.home"), "bin", "java").toString() : jvm;
    }
}
