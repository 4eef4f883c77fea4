package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.ClientRules;
import dev.limiter.agent.testing.ForkedProgram;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-client:} rules on OkHttp 4 and 5, with the packaged {@code limiter.jar} in a forked JVM that calls a local
 * server ({@code outbound.OkHttpCalls}): {@code execute()} rejected with {@code OutboundRateLimitException} and
 * paced; {@code enqueue} rejected through the callback's {@code onFailure} and paced without a thread; a
 * {@code Retry-After} answer to an enqueued call pausing the key; a {@code concurrency} limit over enqueued calls
 * given back as their callbacks run.
 */
class OutboundOkHttpClientJarLayoutTest {

    private static final String RULES = ClientRules.file(
            ClientRules.twoAnHour("okhttp-reject", "/okhttp-reject/**"),
            ClientRules.twoAnHour("okhttp-async-reject", "/okhttp-async-reject/**"),
            ClientRules.paced("okhttp-pace", 40, "/okhttp-pace/**", "/okhttp-async-pace/**"),
            ClientRules.honoursRetryAfter("okhttp-busy", "/okhttp-busy/**"),
            ClientRules.inFlight("okhttp-in-flight", 2, "/okhttp-in-flight/**"));

    @TempDir
    Path dir;

    /** OkHttp 4 from the test class path; OkHttp 5 (the {@code okhttp-jvm} artifact) from the build's copy. */
    static Stream<Arguments> okHttpVersions() throws Exception {
        List<Path> four = new ArrayList<>();
        for (String type : List.of("okhttp3.OkHttpClient", "okio.Buffer", "kotlin.jvm.internal.Intrinsics")) {
            four.add(Path.of(Class.forName(type).getProtectionDomain().getCodeSource().getLocation().toURI()));
        }
        List<Path> five;
        try (Stream<Path> jars = Files.list(Path.of(System.getProperty("okhttp5.runtime")))) {
            five = jars.filter(jar -> jar.toString().endsWith(".jar")).sorted().toList();
        }
        assertThat(five).as("okhttp-jvm 5, okio-jvm, kotlin-stdlib").hasSize(3)
                .anyMatch(jar -> jar.getFileName().toString().startsWith("okhttp-jvm-5."));
        return Stream.of(Arguments.of("4.12", four), Arguments.of("5.5", five));
    }

    @ParameterizedTest(name = "OkHttp {0}")
    @MethodSource("okHttpVersions")
    void executeAndEnqueueAreRejectedPacedAndPaused(String version, List<Path> jars) throws Exception {
        ForkedProgram run = ForkedProgram.runWith(dir, RULES, jars, "outbound.OkHttpCalls", List.of("okhttp-reject",
                "okhttp-async-reject", "okhttp-pace", "okhttp-async-pace", "okhttp-retry", "okhttp-in-flight"));
        assertThat(run.line("okhttp-version")).as(run.err()).startsWith("okhttp-version: " + version);
        assertThat(run.line("okhttp-reject")).as(run.err())
                .isEqualTo("okhttp-reject: outcomes=OK,OK,REJ,REJ,REJ, hits=2 rejection=okhttp-reject/true");
        assertThat(run.line("okhttp-async-reject")).isEqualTo("okhttp-async-reject: ok=2 rejected=3 hits=2");
        assertThat(run.line("okhttp-pace")).contains("hits=41");
        assertThat(run.number("okhttp-pace", "millis")).as("41 calls at 40/s").isBetween(900L, 1_250L);
        assertThat(run.line("okhttp-async-pace")).contains("ok=41", "hits=41");
        assertThat(run.number("okhttp-async-pace", "millis")).as("41 enqueued at 40/s").isBetween(900L, 1_250L);
        assertThat(run.line("okhttp-retry")).contains("firstAnswered=1", "after=200", "hits=2");
        assertThat(run.number("okhttp-retry", "retryAfter")).as("what is left of Retry-After: 1")
                .isBetween(800L, 1_000L);
        assertThat(run.line("okhttp-in-flight")).as("2 at once, given back by the callbacks")
                .isEqualTo("okhttp-in-flight: first=2 second=2 rejected=0");
        assertThat(run.err()).as("nothing of ours failed").doesNotContain("limiter: could not", "not supported",
                "SEVERE");
    }
}
