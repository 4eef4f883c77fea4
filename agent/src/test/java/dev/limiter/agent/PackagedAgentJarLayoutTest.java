package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.PackagedAgent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs the packaged {@code limiter.jar} in forked JVMs (bound to {@code integration-test}, after
 * {@code package}): the application sees the bridge in the boot loader and nothing else of ours, a second
 * {@code -javaagent} is refused, and {@code java -jar limiter.jar validate} and {@code jfc} work from the real
 * jar.
 */
class PackagedAgentJarLayoutTest {

    @TempDir
    Path dir;

    private record Result(int exit, String out, String err) {
    }

    private Result run(List<String> command) throws Exception {
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(60, TimeUnit.SECONDS)).as("forked JVM finished").isTrue();
        return new Result(process.exitValue(), Files.readString(out, StandardCharsets.UTF_8),
                Files.readString(err, StandardCharsets.UTF_8));
    }

    private Path rules() throws Exception {
        Path rules = dir.resolve("rules.yml");
        Files.writeString(rules, """
                version: 1
                rules:
                  - id: api
                    match: { http: { path: /api/** } }
                    limit: 10
                    window: 1s
                """);
        return rules;
    }

    @Test
    void theApplicationSeesOnlyTheBridgeAndASecondAgentIsRefused() throws Exception {
        String agent = "-javaagent:" + PackagedAgent.jar() + "=" + rules();
        List<String> command = new ArrayList<>(List.of(PackagedAgent.java(), agent, agent, "-cp",
                System.getProperty("basedir", ".") + "/target/test-classes", "weavingtest.IsolationProbe"));
        Result result = run(command);
        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.out()).contains("bridge-loader=null", "delegate-installed=true",
                "visible dev.limiter.agent.startup.Startup=false", "visible dev.limiter.rules.RuleSet=false",
                "visible dev.limiter.shaded.bytebuddy.jar.asm.ClassReader=false",
                "visible net.bytebuddy.jar.asm.ClassReader=false",
                "visible dev.limiter.shaded.redis.clients.jedis.Jedis=false",
                "visible redis.clients.jedis.Jedis=false", "resource inst=false",
                "first-request-rejected=false");
        assertThat(result.err()).containsOnlyOnce(" started: rules ").contains("already running");
        // JUL unconfigured: the banner is written in SimpleFormatter's layout with an ISO-8601 UTC time
        assertThat(result.err()).containsPattern("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d\\.\\d{3}Z "
                + "dev\\.limiter\\.agent\\.startup\\.Startup\\R+INFO: limiter \\S+ started: rules ");
        assertThat(result.err()).doesNotContain("sun.misc.Unsafe");
    }

    @Test
    void invalidRulesWithStrictStopTheJvmAndWithoutStrictDoNot() throws Exception {
        Path bad = dir.resolve("bad.yml");
        Files.writeString(bad, "version: 1\nrules:\n  - id: x\n    limit: -3\n");
        String classes = System.getProperty("basedir", ".") + "/target/test-classes";
        Result strict = run(List.of(PackagedAgent.java(), "-javaagent:" + PackagedAgent.jar() + "=rules=" + bad + ",strict=true", "-cp",
                classes, "weavingtest.IsolationProbe"));
        assertThat(strict.exit()).isEqualTo(1);
        assertThat(strict.err()).contains("invalid rules").containsPattern("bad\\.yml:4:\\d+: ");
        assertThat(strict.out()).doesNotContain("bridge-loader");

        Result lenient = run(List.of(PackagedAgent.java(), "-javaagent:" + PackagedAgent.jar() + "=" + bad, "-cp", classes,
                "weavingtest.IsolationProbe"));
        assertThat(lenient.exit()).isZero();
        assertThat(lenient.err()).contains("invalid rules");
        assertThat(lenient.out()).contains("delegate-installed=true");
    }

    @Test
    void aConfiguredJulFormatsTheBannerItself() throws Exception {
        Path config = dir.resolve("logging.properties");
        Files.writeString(config, "handlers=java.util.logging.ConsoleHandler\n"
                + "java.util.logging.SimpleFormatter.format=JUL|%4$s|%5$s%n\n");
        Result result = run(List.of(PackagedAgent.java(), "-Djava.util.logging.config.file=" + config,
                "-javaagent:" + PackagedAgent.jar() + "=" + rules(), "-cp",
                System.getProperty("basedir", ".") + "/target/test-classes", "weavingtest.IsolationProbe"));
        assertThat(result.exit()).as(result.err()).isZero();
        assertThat(result.err()).containsPattern("JUL\\|INFO\\|limiter \\S+ started: rules ");
    }

    @Test
    void theCliRunsFromThePackagedJar() throws Exception {
        Result ok = run(List.of(PackagedAgent.java(), "-jar", PackagedAgent.jar(), "validate", rules().toString()));
        assertThat(ok.exit()).as(ok.err()).isZero();
        assertThat(ok.out()).contains("api (").contains("OK, 1 rule");
    }

    @Test
    void theJarPrintsTheJfrSettingsOfTheDocs() throws Exception {
        Result jfc = run(List.of(PackagedAgent.java(), "-jar", PackagedAgent.jar(), "jfc"));
        assertThat(jfc.exit()).as(jfc.err()).isZero();
        assertThat(jfc.out()).isEqualTo(Files.readString(
                Path.of(System.getProperty("basedir", "."), "..", "docs", "limiter.jfc"), StandardCharsets.UTF_8));
    }
}
