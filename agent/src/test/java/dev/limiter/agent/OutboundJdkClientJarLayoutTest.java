package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.PackagedAgent;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-client:} rules on the JDK's {@code java.net.http.HttpClient}, with the packaged {@code limiter.jar} in
 * a forked JVM (17, and 25 in the second pass) that calls a local server ({@code outbound.PartnerCalls}): exact
 * counts of what reached the server, rejections as {@code OutboundRateLimitException} (an {@code IOException})
 * from {@code send} and as failed futures from {@code sendAsync}, pacing of blocking calls from one thread and
 * from 50 (and 1,000 virtual threads on 21+), pacing of asynchronous calls without threads, {@code Retry-After}
 * honoured, and a cancelled delayed call's permit given back.
 */
class OutboundJdkClientJarLayoutTest {

    private static final Pattern LINE = Pattern.compile("(?m)^([a-z-]+): (.*)$");
    private static final Pattern PAIR = Pattern.compile("(\\w+)=(\\S*)");

    private static final String RULES = """
            version: 1
            rules:
              - id: reject-2h
                match: { http-client: { host: 127.0.0.1, path: '/reject/**' } }
                strategy: token-bucket   # the next permit in 30 min, whenever the test runs
                limit: 2
                window: 1h
              - id: async-reject
                match: { http-client: { host: 127.0.0.1, path: '/async-reject/**', methods: [GET] } }
                strategy: token-bucket   # the next permit in 30 min, whenever the test runs
                limit: 2
                window: 1h
              - id: pace
                match: { http-client: { host: 127.0.0.1, path: '/pace/**' } }
                strategy: leaky-bucket
                limit: 40
                window: 1s
                capacity: 1
                on-limit: wait
                max-wait: 30s
              - id: pace-threads
                match: { http-client: { host: '127.0.0.*', path: '/pace-threads/**' } }
                strategy: leaky-bucket
                limit: 100
                window: 1s
                capacity: 1
                on-limit: wait
                max-wait: 30s
              - id: pace-virtual
                match: { http-client: { host: 127.0.0.1, path: '/pace-virtual/**' } }
                strategy: leaky-bucket
                limit: 500
                window: 1s
                capacity: 1
                on-limit: wait
                max-wait: 30s
              - id: async-pace
                match: { http-client: { host: 127.0.0.1, scheme: http, path: '/async-pace/**' } }
                strategy: leaky-bucket
                limit: 40
                window: 1s
                capacity: 1
                on-limit: wait
                max-wait: 30s
              - id: busy
                match: { http-client: { host: 127.0.0.1, path: '/busy/**' } }
                key: host
                limit: 1000
                window: 1s
                honor-retry-after: true
              - id: busy-wait
                match: { http-client: { host: 127.0.0.1, path: '/busy-wait/**' } }
                strategy: token-bucket
                limit: 1000
                window: 1s
                on-limit: wait
                max-wait: 5s
                honor-retry-after: true
              - id: busy-async
                match: { http-client: { host: 127.0.0.1, path: '/busy-async/**' } }
                strategy: token-bucket
                limit: 1000
                window: 1s
                on-limit: wait
                max-wait: 5s
                honor-retry-after: true
              - id: cancel
                match: { http-client: { host: 127.0.0.1, path: '/cancel/**' } }
                strategy: leaky-bucket
                limit: 2
                window: 1s
                capacity: 1
                on-limit: wait
                max-wait: 10s
              - id: elsewhere
                match: { http-client: { host: api.partner.com } }
                limit: 1
                window: 1h
            """;

    @TempDir
    static Path dir;

    private static Map<String, Map<String, String>> lines;

    /** One forked run plays every scenario in turn (each on its own paths and rules). */
    @BeforeAll
    static void run() throws Exception {
        List<String> scenarios = new ArrayList<>(List.of("unmatched", "reject", "async-reject", "pace", "async-pace",
                "pace-threads", "retry-reject", "retry-wait", "cancel"));
        if (Runtime.version().feature() >= 21) {
            scenarios.add("pace-virtual");
        }
        lines = run("", scenarios);
    }

    /** Runs {@code scenarios} in one forked JVM with the agent ({@code agentOptions} after the rules); its lines. */
    private static Map<String, Map<String, String>> run(String agentOptions, List<String> scenarios)
            throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        List<String> command = new ArrayList<>(List.of(PackagedAgent.java(), "-javaagent:" + PackagedAgent.jar()
                + "=rules=" + file + agentOptions, "-cp", PackagedAgent.testClasses(), "outbound.PartnerCalls"));
        command.addAll(scenarios);
        Path out = dir.resolve("out.txt");
        Path err = dir.resolve("err.txt");
        Process process = new ProcessBuilder(command).redirectOutput(out.toFile()).redirectError(err.toFile()).start();
        assertThat(process.waitFor(180, TimeUnit.SECONDS)).as("forked JVM finished").isTrue();
        String stdout = Files.readString(out, StandardCharsets.UTF_8);
        String stderr = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(stdout + stderr).isZero();
        Map<String, Map<String, String>> lines = new HashMap<>();
        Matcher line = LINE.matcher(stdout);
        while (line.find()) {
            Map<String, String> values = new HashMap<>();
            Matcher pair = PAIR.matcher(line.group(2));
            while (pair.find()) {
                values.put(pair.group(1), pair.group(2));
            }
            lines.put(line.group(1), values);
        }
        assertThat(stderr).as("nothing of ours failed").doesNotContain("Exception", "SEVERE", "cannot");
        return lines;
    }

    private static Map<String, String> scenario(String name) {
        assertThat(lines).as("scenario %s printed its line", name).containsKey(name);
        return lines.get(name);
    }

    private static long number(Map<String, String> values, String key) {
        return Long.parseLong(values.get(key));
    }

    /** Pacing: {@code calls} at {@code rate} take (calls - 1) / rate, within 10 % (and scheduling noise above). */
    private static void paced(long millis, int calls, int rate) {
        long expected = (calls - 1) * 1000L / rate;
        assertThat(millis).as("%d calls at %d/s", calls, rate).isBetween(expected * 9 / 10, expected * 11 / 10 + 150);
    }

    @Test
    void aCallNoRuleMatchesIsSentUntouched() {
        Map<String, String> run = scenario("unmatched");
        assertThat(run).containsEntry("ok", "20").containsEntry("hits", "20");
    }

    @Test
    void callsAreLimitedFromTheProgramsFirstCallWhenTheRulesTakeSecondsToLoad() throws Exception {
        Map<String, Map<String, String>> slow = run(",strategies=" + PackagedAgent.slowStrategyJar(dir),
                List.of("reject", "async-reject"));
        assertThat(slow.get("reject")).containsEntry("outcomes", "OK,OK,REJ,REJ,REJ,").containsEntry("hits", "2");
        assertThat(slow.get("async-reject")).containsEntry("ok", "2").containsEntry("rejected", "3");
    }

    @Test
    void blockingCallsOverTheLimitThrowTheRejectionAndSendNothing() {
        Map<String, String> run = scenario("reject");
        assertThat(run).containsEntry("outcomes", "OK,OK,REJ,REJ,REJ,").containsEntry("hits", "2");
        assertThat(run.get("rejection")).as("rule, retry-after beyond a minute, an IOException")
                .isEqualTo("reject-2h/true/true");
    }

    @Test
    void asynchronousCallsOverTheLimitFailTheirFuture() {
        assertThat(scenario("async-reject")).containsEntry("ok", "2").containsEntry("rejected", "3")
                .containsEntry("hits", "2");
    }

    @Test
    void blockingCallsArePacedToTheQuotaFromOneThreadAndFromFifty() {
        Map<String, String> one = scenario("pace");
        assertThat(one).containsEntry("hits", "41");
        paced(number(one, "millis"), 41, 40);
        Map<String, String> fifty = scenario("pace-threads");
        assertThat(fifty).containsEntry("hits", "100");
        paced(number(fifty, "millis"), 100, 100);
    }

    @Test
    void aThousandVirtualThreadsArePacedToo() {
        if (Runtime.version().feature() < 21) {
            return; // no virtual threads before Java 21: the second pass (Java 25) runs it
        }
        Map<String, String> run = scenario("pace-virtual");
        assertThat(run).containsEntry("hits", "1000").containsEntry("failed", "0");
        paced(number(run, "millis"), 1000, 500);
    }

    @Test
    void asynchronousCallsArePacedWithoutAThreadEach() {
        Map<String, String> run = scenario("async-pace");
        assertThat(run).containsEntry("hits", "41");
        paced(number(run, "millis"), 41, 40);
        assertThat(number(run, "submitted")).as("every future handed back at once").isLessThan(500);
        assertThat(number(run, "addedThreads")).as("no thread per waiting call").isBetween(0L, 4L);
    }

    @Test
    void aRetryAfterAnswerPausesTheKeyForEveryCall() {
        Map<String, String> run = scenario("retry-reject");
        assertThat(run).containsEntry("first", "429").containsEntry("async", "rejected")
                .containsEntry("after", "200").containsEntry("hits", "2");
        assertThat(number(run, "retryAfter")).as("what is left of Retry-After: 1").isBetween(800L, 1000L);
    }

    @Test
    void aWaitingRuleWaitsTheRetryAfterOut() {
        Map<String, String> run = scenario("retry-wait");
        assertThat(run).containsEntry("first", "429").containsEntry("second", "200")
                .containsEntry("asyncFirst", "429").containsEntry("asyncSecond", "200");
        // never early; late by the call itself and the machine's scheduling (measured: 2-5 ms)
        assertThat(number(run, "blocking")).isBetween(950L, 1_150L);
        assertThat(number(run, "async")).isBetween(950L, 1_150L);
    }

    @Test
    void aCancelledDelayedCallGivesItsPermitBack() {
        Map<String, String> run = scenario("cancel");
        assertThat(run).containsEntry("cancelled", "true").containsEntry("hits", "2");
        assertThat(number(run, "millis")).as("the next call takes the cancelled one's time, 500 ms, not 1 s")
                .isBetween(400L, 750L);
    }
}
