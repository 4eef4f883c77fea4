package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import dev.limiter.agent.testing.PackagedAgent;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code java -jar limiter.jar attach} into a running program whose threads call a rule-named method in a tight
 * loop (half of them virtual on Java 21+): when the command returns, the method rule is in force, and no call from
 * then on goes unchecked. The budget (20 per day, token bucket: no refill within the test) is used up exactly: the
 * rule allowed 20, every call after the attach returned was admitted within those 20 or rejected, and the callers
 * caught exactly as many rejections as the rule counted. JMX's {@code LastReweave} and the log say when the rules
 * came in force and how long the weaving took; {@code Reweaving} is back to {@code in force}.
 */
class LateAttachLoopJarLayoutTest {

    private static final int LIMIT = 20;

    @TempDir
    Path dir;

    @Test
    void noCallAfterTheAttachReturnsGoesUnchecked() throws Exception {
        Path rules = dir.resolve("rules.yml");
        Files.writeString(rules, """
                version: 1
                rules:
                  - id: work
                    match: { method: { class: attachloop.Work, method: call } }
                    strategy: token-bucket
                    limit: %d
                    window: 24h
                """.formatted(LIMIT));
        String agent = PackagedAgent.jar();
        String java = PackagedAgent.java();
        Path err = dir.resolve("err.txt");
        Process program = new ProcessBuilder(List.of(java, "-XX:+IgnoreUnrecognizedVMOptions",
                "-XX:+EnableDynamicAgentLoading", "-Dlimiter.jmx.delay=100",
                "-cp", PackagedAgent.testClasses(), "attachloop.LoopMain", "4"))
                .redirectError(err.toFile()).start();
        try {
            BufferedReader out = new BufferedReader(new InputStreamReader(program.getInputStream(),
                    StandardCharsets.UTF_8));
            Writer in = new OutputStreamWriter(program.getOutputStream(), StandardCharsets.UTF_8);
            assertThat(out.readLine()).isEqualTo("LOOPING");

            Process attach = new ProcessBuilder(List.of(java, "-jar", agent, "attach", Long.toString(program.pid()),
                    rules.toString())).redirectErrorStream(true).start();
            String attached = new String(attach.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(attach.waitFor(60, TimeUnit.SECONDS)).as("attach finished").isTrue();
            assertThat(attach.exitValue()).as(attached).isZero();
            assertThat(attached).contains("Its method and jaxrs rules are in force now");

            // the attach has returned: from here on every call is checked
            in.write("GO\n");
            in.flush();
            assertThat(out.readLine()).isEqualTo("GOING");
            Thread.sleep(1_000); // the loops keep calling: a call that went unchecked would be admitted beyond the 20
            in.write("STOP\n");
            in.flush();
            String result = out.readLine();
            String reweave = out.readLine();
            assertThat(program.waitFor(60, TimeUnit.SECONDS)).as("program finished").isTrue();
            String stderr = Files.readString(err, StandardCharsets.UTF_8);
            System.out.println(result + "\n" + reweave);

            Matcher m = Pattern.compile("RESULT admittedAfter=(\\d+) rejectedAfter=(\\d+) thrown=(\\d+) allowed=(\\d+)"
                    + " rejected=(\\d+)").matcher(String.valueOf(result));
            assertThat(m.matches()).as(result + "\n" + stderr).isTrue();
            long admittedAfter = Long.parseLong(m.group(1));
            long rejectedAfter = Long.parseLong(m.group(2));
            long thrown = Long.parseLong(m.group(3));
            long allowed = Long.parseLong(m.group(4));
            long rejected = Long.parseLong(m.group(5));
            assertThat(allowed).as(result).isEqualTo(LIMIT);
            assertThat(admittedAfter).as(result).isLessThanOrEqualTo(LIMIT);
            assertThat(rejectedAfter).as("the loops kept calling after the attach: " + result).isGreaterThan(1_000);
            assertThat(thrown).as("every rejection reached its caller, and only those: " + result).isEqualTo(rejected);

            String inForce = "the method rules of the late attach at \\S+ are in force after \\d+ ms \\(1 class woven\\)";
            assertThat(reweave).as(stderr).matches("REWEAVE state=in force last=" + inForce);
            assertThat(stderr).containsPattern("limiter: " + inForce);
            assertThat(stderr).doesNotContain("could not instrument");
        } finally {
            program.destroyForcibly();
        }
    }
}
