package dev.limiter.agent;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.testing.PackagedAgent;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code http-client:} rules on Apache HttpClient 5's classic client, with the packaged {@code limiter.jar} in a
 * forked JVM that calls a local server ({@code outbound.ApacheCalls}): exact counts of what reached the server,
 * the rejection thrown as {@code OutboundRateLimitException} (an {@code IOException}, as {@code execute}
 * declares), pacing, and {@code Retry-After} honoured.
 */
class OutboundApacheClientJarLayoutTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: apache-reject
                match: { http-client: { host: 127.0.0.1, path: '/apache-reject/**', methods: [GET] } }
                limit: 2
                window: 1h
              - id: apache-pace
                match: { http-client: { host: 127.0.0.1, path: '/apache-pace/**' } }
                strategy: leaky-bucket
                limit: 40
                window: 1s
                capacity: 1
                on-limit: wait
                max-wait: 30s
              - id: apache-busy
                match: { http-client: { host: 127.0.0.1, path: '/apache-busy/**' } }
                key: host
                limit: 1000
                window: 1s
                honor-retry-after: true
            """;

    @TempDir
    Path dir;

    @Test
    void theClassicClientIsRejectedPacedAndPausedByRetryAfter() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        String classPath = String.join(File.pathSeparator, PackagedAgent.testClasses(),
                jarOf("org.apache.hc.client5.http.impl.classic.HttpClients"),
                jarOf("org.apache.hc.core5.http.HttpHost"), jarOf("org.apache.hc.core5.http2.HttpVersionPolicy"),
                jarOf("org.slf4j.LoggerFactory"));
        Process process = new ProcessBuilder(List.of(PackagedAgent.java(), "-javaagent:" + PackagedAgent.jar()
                + "=rules=" + file, "-cp", classPath, "outbound.ApacheCalls", "apache-reject", "apache-pace",
                "apache-retry")).redirectOutput(dir.resolve("out.txt").toFile())
                .redirectError(dir.resolve("err.txt").toFile()).start();
        assertThat(process.waitFor(120, TimeUnit.SECONDS)).as("forked JVM finished").isTrue();
        String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
        String err = Files.readString(dir.resolve("err.txt"), StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(out + err).isZero();
        assertThat(out).as(err).contains("apache-reject: outcomes=OK,OK,REJ,REJ,REJ, hits=2 rejection=apache-reject/true");
        String pace = line(out, "apache-pace");
        assertThat(pace).contains("hits=41");
        long millis = Long.parseLong(pace.replaceAll(".*millis=(\\d+).*", "$1"));
        assertThat(millis).as("41 calls at 40/s").isBetween(900L, 1_250L);
        String retry = line(out, "apache-retry");
        assertThat(retry).contains("first=429", "after=200", "hits=2");
        long retryAfter = Long.parseLong(retry.replaceAll(".*retryAfter=(\\d+).*", "$1"));
        assertThat(retryAfter).as("what is left of Retry-After: 1").isBetween(800L, 1_000L);
        assertThat(err).as("nothing of ours failed").doesNotContain("limiter: could not", "not supported", "SEVERE");
    }

    private static String line(String out, String name) {
        return out.lines().filter(line -> line.startsWith(name + ":")).findFirst().orElse("");
    }

    private static String jarOf(String className) throws Exception {
        return Path.of(Class.forName(className).getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }
}
