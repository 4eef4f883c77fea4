package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.ClientRules;
import dev.limiter.agent.testing.ForkedProgram;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-client:} rules on Apache HttpClient 5's async client, with the packaged {@code limiter.jar} in a forked
 * JVM that calls a local server ({@code outbound.ApacheAsyncCalls}): exchanges rejected through their future with
 * {@code OutboundRateLimitException} and nothing sent; 41 executed at once paced on a timer, no thread added per
 * call; a {@code Retry-After} answer pausing the key; a {@code concurrency} limit given back as responses come.
 */
class OutboundApacheAsyncClientJarLayoutTest {

    private static final String RULES = ClientRules.file(
            ClientRules.twoAnHour("apache-async-reject", "/apache-async-reject/**"),
            ClientRules.paced("apache-async-pace", 40, "/apache-async-pace/**"),
            ClientRules.honoursRetryAfter("apache-async-busy", "/apache-async-busy/**"),
            ClientRules.inFlight("apache-async-in-flight", 2, "/apache-async-in-flight/**"));

    @TempDir
    Path dir;

    @Test
    void exchangesAreRejectedPacedPausedAndReleased() throws Exception {
        ForkedProgram run = ForkedProgram.run(dir, RULES, List.of("org.apache.hc.client5.http.impl.async.HttpAsyncClients",
                "org.apache.hc.core5.http.HttpHost", "org.apache.hc.core5.http2.HttpVersionPolicy",
                "org.slf4j.LoggerFactory"), "outbound.ApacheAsyncCalls", List.of("apache-async-reject",
                        "apache-async-pace", "apache-async-retry", "apache-async-in-flight"));
        assertThat(run.line("apache-async-reject")).as(run.err())
                .isEqualTo("apache-async-reject: ok=2 rejected=3 hits=2");
        assertThat(run.line("apache-async-pace")).contains("ok=41", "hits=41");
        assertThat(run.number("apache-async-pace", "millis")).as("41 at once, 40/s").isBetween(900L, 1_250L);
        assertThat(run.number("apache-async-pace", "threadsAdded")).as("a timer and pool threads, not one per call: "
                + run.line("apache-async-pace-threads"))
                .isLessThan(8L);
        run.assertPausedByRetryAfter("apache-async-retry");
        run.assertInFlightGivenBack("apache-async-in-flight");
        assertThat(run.err()).as("nothing of ours failed").doesNotContain("limiter: could not", "not supported",
                "SEVERE");
    }
}
