package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.ClientRules;
import dev.limiter.agent.testing.ForkedProgram;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-client:} rules on the JDK's {@code HttpURLConnection}, with the packaged {@code limiter.jar} in a forked
 * JVM that calls a local server ({@code outbound.UrlConnectionCalls}): GETs read the usual way (status, a header,
 * the body: several {@code getInputStream} calls for one request) rejected with {@code OutboundRateLimitException}
 * and paced; a POST decided once, at {@code getOutputStream}, and rejected again by its later calls; a
 * {@code Retry-After} answer pausing the key; {@code concurrency} permits given back with the response, and by a
 * connection dropped unread once it is collected; a plain {@code RestTemplate}'s rejection as Spring's
 * {@code ResourceAccessException}.
 */
class OutboundUrlConnectionJarLayoutTest {

    private static final String RULES = ClientRules.file(
            ClientRules.twoAnHour("urlconnection-reject", "/urlconnection-reject/**"),
            ClientRules.twoAnHour("urlconnection-rest", "/urlconnection-rest/**"),
            ClientRules.rule("urlconnection-post", new String[] {"/urlconnection-post/**"}, "strategy: token-bucket",
                    "limit: 1", "window: 1h"),
            ClientRules.paced("urlconnection-pace", 40, "/urlconnection-pace/**"),
            ClientRules.honoursRetryAfter("urlconnection-busy", "/urlconnection-busy/**"),
            ClientRules.inFlight("urlconnection-in-flight", 2, "/urlconnection-in-flight/**"),
            ClientRules.inFlight("urlconnection-dropped", 1, "/urlconnection-dropped/**"));

    @TempDir
    Path dir;

    @Test
    void connectionsAreDecidedOnceRejectedPacedPausedAndReleased() throws Exception {
        ForkedProgram run = ForkedProgram.runWith(dir, RULES,
                ForkedProgram.testJars(".*/(org/springframework|commons-logging|io/micrometer)/.*"),
                "outbound.UrlConnectionCalls", List.of("urlconnection-reject", "urlconnection-pace",
                        "urlconnection-post", "urlconnection-retry", "urlconnection-in-flight",
                        "urlconnection-dropped", "urlconnection-rest-template"));
        assertThat(run.line("urlconnection-reject")).as(run.err()).isEqualTo(
                "urlconnection-reject: outcomes=OK,OK,REJ,REJ,REJ, hits=2 rejection=urlconnection-reject/true");
        assertThat(run.line("urlconnection-pace")).contains("hits=41");
        assertThat(run.number("urlconnection-pace", "millis")).as("41 calls at 40/s").isBetween(900L, 1_250L);
        assertThat(run.line("urlconnection-post")).as("decided once; its later calls rejected without a decision")
                .isEqualTo("urlconnection-post: outcomes=200,REJ,again, hits=1");
        run.assertPausedByRetryAfter("urlconnection-retry");
        run.assertInFlightGivenBack("urlconnection-in-flight");
        assertThat(run.line("urlconnection-dropped")).as("held while the connection lives, back once collected")
                .isEqualTo("urlconnection-dropped: whileHeld=REJ afterDrop=OK");
        assertThat(run.line("urlconnection-rest-template")).isEqualTo(
                "urlconnection-rest-template: outcomes=OK,OK,REJ, cause=OutboundRateLimitException hits=2");
        assertThat(run.err()).as("nothing of ours failed").doesNotContain("limiter: could not", "not supported",
                "cannot let module", "SEVERE");
    }
}
