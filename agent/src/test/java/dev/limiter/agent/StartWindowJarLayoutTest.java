package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.PackagedAgent;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A limited method called at once by a program's {@code main}, with the packaged {@code limiter.jar} in forked
 * JVMs (on the JVM the tests run on: 17, and 25 in the second pass): the rules are parsed on the agent's thread
 * while the program starts, and the first calls must still be checked against them. {@code startwindow.EarlyCalls}
 * calls a method of its own class, named by a {@code method:} rule or annotated with {@code @Limit}, in a tight
 * loop: exactly one admission then rejections with a limit of 1 an hour, and 11 calls paced over two seconds
 * with a waiting rule of 5 a second. Also with the parse stretched to two seconds by a slow custom strategy jar,
 * so the program's class surely loads long before the rules are in.
 */
class StartWindowJarLayoutTest {

    private static final Pattern CALLS = Pattern.compile("(?m)^(\\S+): ([A-Z ]+) in (\\d+) ms$");

    @TempDir
    Path dir;

    /** What one run of the program printed: the calls' outcomes, how long they took, and the agent's log. */
    private record Run(String outcomes, long millis, String err) {
    }

    private Run run(String rules, String agentOptions, String which, int calls, String... jvmOptions)
            throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, rules);
        List<String> command = new ArrayList<>();
        command.add(PackagedAgent.java());
        command.addAll(List.of(jvmOptions));
        command.addAll(List.of("-Dlimiter.debug=true", "-javaagent:" + PackagedAgent.jar() + "=rules=" + file + agentOptions,
                "-cp", PackagedAgent.testClasses(), "startwindow.EarlyCalls", which, Integer.toString(calls)));
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("forked JVM finished").isTrue();
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(stdout + stderr).isZero();
        Matcher matcher = CALLS.matcher(stdout);
        assertThat(matcher.find()).as(stdout + stderr).isTrue();
        assertThat(matcher.group(1)).isEqualTo(which);
        return new Run(matcher.group(2), Long.parseLong(matcher.group(3)), stderr);
    }

    private static String methodRule(String limit) {
        return """
                version: 1
                rules:
                  - id: early-work
                    match: { method: { class: startwindow.EarlyCalls, method: work } }
                """ + limit;
    }

    private static final String REJECT = """
                limit: 1
                window: 1h
            """;

    private static final String WAIT = """
                strategy: leaky-bucket
                capacity: 1
                limit: 5
                window: 1s
                on-limit: wait
                max-wait: 10s
            """;

    /** 11 calls at 5 a second, one permit at a time: the first at once, the last 2 s later. */
    private static final long PACED_MILLIS = 1_950;

    @Test
    void aMethodRuleRejectsFromTheProgramsFirstCall() throws Exception {
        // whether the program's class loads before the parse ends or after depends on the machine: exact either way
        Run run = run(methodRule(REJECT), "", "work", 5);
        assertThat(run.outcomes()).as(run.err()).isEqualTo("OK REJ REJ REJ REJ");
    }

    @Test
    void aWaitingMethodRulePacesTheProgramsFirstCalls() throws Exception {
        Run run = run(methodRule(WAIT), "", "work", 11);
        assertThat(run.outcomes()).isEqualTo("OK OK OK OK OK OK OK OK OK OK OK");
        assertThat(run.millis()).as(run.err()).isGreaterThanOrEqualTo(PACED_MILLIS);
    }

    @Test
    void aMethodRuleHoldsFromTheFirstCallWhenTheRulesTakeSecondsToLoad() throws Exception {
        Path strategies = slowStrategyJar();
        Run reject = run(methodRule(REJECT), ",strategies=" + strategies, "work", 5);
        assertThat(reject.outcomes()).as(reject.err()).isEqualTo("OK REJ REJ REJ REJ");
        Matcher waited = Pattern.compile("startwindow.EarlyCalls waited (\\d+) ms").matcher(reject.err());
        assertThat(waited.find()).as(reject.err()).isTrue();
        assertThat(Long.parseLong(waited.group(1))).as("the class waited for the slow parse").isGreaterThan(1_000);
        // the other class of its package, loaded during the parse too, is named by no rule: it did not wait
        assertThat(reject.err()).doesNotContain("startwindow.Unnamed wait");

        Run paced = run(methodRule(WAIT), ",strategies=" + strategies, "work", 11);
        assertThat(paced.outcomes()).isEqualTo("OK OK OK OK OK OK OK OK OK OK OK");
        assertThat(paced.millis()).as(paced.err()).isGreaterThanOrEqualTo(PACED_MILLIS);
    }

    @Test
    void anAnnotatedMethodIsLimitedFromTheFirstCallWithARulesFileThatNamesOtherClassesOrNone() throws Exception {
        // the file names another class: the program's class does not wait at its load, its calls wait at the gate
        String other = methodRule(REJECT).replace("startwindow.EarlyCalls", "startwindow.Elsewhere");
        Run reject = run(other, "", "annotated", 3);
        assertThat(reject.outcomes()).as(reject.err()).isEqualTo("OK REJ REJ");
        assertThat(reject.err()).doesNotContain("startwindow.EarlyCalls waited");

        Run paced = run(other, "", "annotated-wait", 11);
        assertThat(paced.outcomes()).isEqualTo("OK OK OK OK OK OK OK OK OK OK OK");
        assertThat(paced.millis()).as(paced.err()).isGreaterThanOrEqualTo(PACED_MILLIS);

        String httpOnly = """
                version: 1
                rules:
                  - id: everything
                    match: { http: { path: /** } }
                    limit: 100
                    window: 1s
                """;
        Run http = run(httpOnly, ",strategies=" + slowStrategyJar(), "annotated", 3);
        assertThat(http.outcomes()).as(http.err()).isEqualTo("OK REJ REJ");
    }

    private Path slowStrategyJar() throws IOException {
        return PackagedAgent.slowStrategyJar(dir);
    }
}
