package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.ClientRules;
import dev.limiter.agent.testing.ForkedProgram;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-client:} rules on Apache HttpClient 5's classic client, with the packaged {@code limiter.jar} in a
 * forked JVM that calls a local server ({@code outbound.ApacheCalls}): exact counts of what reached the server,
 * the rejection thrown as {@code OutboundRateLimitException} (an {@code IOException}, as {@code execute}
 * declares), pacing, and {@code Retry-After} honoured.
 */
class OutboundApacheClientJarLayoutTest {

    private static final String RULES = ClientRules.file(
            """
              - id: apache-reject
                match: { http-client: { host: 127.0.0.1, path: '/apache-reject/**', methods: [GET] } }
                strategy: token-bucket   # the next permit in 30 min, whenever the test runs
                limit: 2
                window: 1h
            """,
            ClientRules.paced("apache-pace", 40, "/apache-pace/**"),
            ClientRules.rule("apache-busy", new String[] {"/apache-busy/**"}, "key: host", "limit: 1000", "window: 1s",
                    "honor-retry-after: true"));

    @TempDir
    Path dir;

    @Test
    void theClassicClientIsRejectedPacedAndPausedByRetryAfter() throws Exception {
        ForkedProgram run = ForkedProgram.run(dir, RULES, List.of("org.apache.hc.client5.http.impl.classic.HttpClients",
                "org.apache.hc.core5.http.HttpHost", "org.apache.hc.core5.http2.HttpVersionPolicy",
                "org.slf4j.LoggerFactory"), "outbound.ApacheCalls", List.of("apache-reject", "apache-pace",
                        "apache-retry"));
        assertThat(run.line("apache-reject")).as(run.err())
                .isEqualTo("apache-reject: outcomes=OK,OK,REJ,REJ,REJ, hits=2 rejection=apache-reject/true");
        assertThat(run.line("apache-pace")).contains("hits=41");
        assertThat(run.number("apache-pace", "millis")).as("41 calls at 40/s").isBetween(900L, 1_250L);
        assertThat(run.line("apache-retry")).contains("first=429", "after=200", "hits=2");
        assertThat(run.number("apache-retry", "retryAfter")).as("what is left of Retry-After: 1")
                .isBetween(800L, 1_000L);
        assertThat(run.err()).as("nothing of ours failed").doesNotContain("limiter: could not", "not supported",
                "SEVERE");
    }
}
