package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.ClientRules;
import dev.limiter.agent.testing.ForkedProgram;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-client:} rules on Spring's blocking {@code RestClient} over Reactor Netty (Spring 7), with the packaged
 * {@code limiter.jar} in a forked JVM that calls a local server ({@code outbound.RestClientCalls}): rejected with
 * {@code ResourceAccessException} caused by {@code OutboundRateLimitException} and nothing sent; paced; a
 * {@code Retry-After} answer pausing the key.
 */
class OutboundRestClientJarLayoutTest {

    private static final String RULES = ClientRules.file(
            ClientRules.twoAnHour("restclient-reject", "/restclient-reject/**"),
            ClientRules.paced("restclient-pace", 40, "/restclient-pace/**"),
            ClientRules.honoursRetryAfter("restclient-busy", "/restclient-busy/**"));

    @TempDir
    Path dir;

    @Test
    void requestsAreRejectedPacedAndPaused() throws Exception {
        ForkedProgram run = ForkedProgram.runWith(dir, RULES,
                ForkedProgram.testJars(OutboundWebClientJarLayoutTest.SPRING_AND_REACTOR), "outbound.RestClientCalls",
                List.of("restclient-reject", "restclient-pace", "restclient-retry"));
        assertThat(run.line("restclient-reject")).as(run.err())
                .isEqualTo("restclient-reject: outcomes=OK,OK,REJ,REJ,REJ, hits=2 rejection=restclient-reject/true");
        assertThat(run.line("restclient-pace")).contains("hits=41");
        assertThat(run.number("restclient-pace", "millis")).as("41 calls at 40/s").isBetween(900L, 1_250L);
        run.assertPausedByRetryAfter("restclient-retry");
        assertThat(run.err()).as("nothing of ours failed").doesNotContain("limiter: could not", "not supported",
                "SEVERE");
    }
}
