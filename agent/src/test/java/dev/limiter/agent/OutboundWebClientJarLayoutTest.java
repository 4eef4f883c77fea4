package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.ClientRules;
import dev.limiter.agent.testing.ForkedProgram;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-client:} rules on Spring's {@code WebClient} (Spring 7, Reactor Netty), with the packaged
 * {@code limiter.jar} in a forked JVM that calls a local server ({@code outbound.WebClientCalls}): a request
 * rejected with {@code WebClientRequestException} caused by {@code OutboundRateLimitException} and nothing sent;
 * paced from one thread and, subscribed all at once, on Reactor's timer; a {@code Retry-After} answer pausing the
 * key; a {@code concurrency} limit given back as responses come; a {@code Mono} decided at each subscription.
 */
class OutboundWebClientJarLayoutTest {

    private static final String RULES = ClientRules.file(
            ClientRules.twoAnHour("webclient-reject", "/webclient-reject/**", "/webclient-lazy/**"),
            ClientRules.paced("webclient-pace", 40, "/webclient-pace/**", "/webclient-async-pace/**"),
            ClientRules.honoursRetryAfter("webclient-busy", "/webclient-busy/**"),
            ClientRules.inFlight("webclient-in-flight", 2, "/webclient-in-flight/**"),
            ClientRules.twoAnHour("webclient-jdk", "/webclient-jdk/**"));

    /** Spring, Reactor, Reactor Netty and Netty, as the test class path has them. */
    static final String SPRING_AND_REACTOR =
            ".*/(org/springframework|io/projectreactor|io/netty|org/reactivestreams|io/micrometer|commons-logging)/.*";

    @TempDir
    Path dir;

    @Test
    void exchangesAreRejectedPacedPausedAndDecidedPerSubscription() throws Exception {
        ForkedProgram run = ForkedProgram.runWith(dir, RULES, ForkedProgram.testJars(SPRING_AND_REACTOR), "outbound.WebClientCalls",
                List.of("webclient-reject", "webclient-wrapped", "webclient-pace", "webclient-async-pace",
                        "webclient-retry", "webclient-in-flight", "webclient-lazy", "webclient-jdk"));
        assertThat(run.line("webclient-reject")).as(run.err())
                .isEqualTo("webclient-reject: outcomes=OK,OK,REJ,REJ,REJ, hits=2 rejection=webclient-reject/true");
        assertThat(run.line("webclient-wrapped")).isEqualTo(
                "webclient-wrapped: type=WebClientRequestException cause=OutboundRateLimitException"
                        + " url=/webclient-reject/wrapped");
        assertThat(run.line("webclient-pace")).contains("hits=41");
        assertThat(run.number("webclient-pace", "millis")).as("41 calls at 40/s").isBetween(900L, 1_250L);
        assertThat(run.line("webclient-async-pace")).contains("ok=41", "hits=41");
        assertThat(run.number("webclient-async-pace", "millis")).as("41 subscribed at once, 40/s")
                .isBetween(900L, 1_250L);
        assertThat(run.number("webclient-async-pace", "threadsAdded")).as("no thread per waiting call")
                .isLessThan(8L);
        run.assertPausedByRetryAfter("webclient-retry");
        run.assertInFlightGivenBack("webclient-in-flight");
        assertThat(run.line("webclient-lazy")).as("nothing decided or sent when made; each subscription decided")
                .isEqualTo("webclient-lazy: before=0 outcomes=REJ,REJ,REJ, hits=0");
        assertThat(run.line("webclient-jdk")).as("decided once, by the JDK client under the connector")
                .isEqualTo("webclient-jdk: outcomes=OK,OK,REJ,REJ,REJ, hits=2");
        assertThat(run.err()).as("nothing of ours failed").doesNotContain("limiter: could not", "not supported",
                "SEVERE");
    }
}
