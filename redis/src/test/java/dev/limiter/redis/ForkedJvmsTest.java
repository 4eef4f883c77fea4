package dev.limiter.redis;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.LimitConfig;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** Three real JVMs (plain {@code java} processes running {@link SharedLimitMain}) share one Redis limit. */
class ForkedJvmsTest {

    @Test
    void threeJvmsAdmitExactlyTheLimitTogether() throws Exception {
        try (RedisServer server = RedisServer.start()) {
            List<Process> jvms = new ArrayList<>();
            for (int i = 0; i < 3; i++) {
                jvms.add(fork(server.uri(), "forked", "fixed-window", 150, LimitConfig.MAX_WINDOW_MILLIS, 3, 100));
            }
            int total = 0;
            for (Process jvm : jvms) {
                assertThat(jvm.waitFor(60, TimeUnit.SECONDS)).isTrue();
                String output = new String(jvm.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
                assertThat(jvm.exitValue()).as(output).isZero();
                assertThat(output).as(output).contains("admitted=").contains("errors=0");
                String line = output.lines().filter(l -> l.startsWith("admitted=")).findFirst().orElseThrow();
                total += Integer.parseInt(line.substring(9, line.indexOf(' ')));
            }
            // 900 attempts in three JVMs, one budget of 150 (49-day windows: no boundary within the test)
            assertThat(total).isEqualTo(150);
        }
    }

    private static Process fork(String uri, String rule, String strategy, long limit, long window, int threads,
            int attempts) throws IOException {
        String java = ProcessHandle.current().info().command().orElse(System.getProperty("java.home") + "/bin/java");
        List<String> cmd = List.of(java, "-Xmx64m", "-XX:TieredStopAtLevel=1", "-cp",
                System.getProperty("java.class.path"), SharedLimitMain.class.getName(), uri, rule, strategy,
                String.valueOf(limit), String.valueOf(window), String.valueOf(threads), String.valueOf(attempts));
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }
}
