package dev.limiter.it.webflux;

import static dev.limiter.it.ScenarioContract.assertRejected;
import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.reactive.AbstractReactiveHttpLimiterTest;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import javax.management.ObjectName;
import org.junit.jupiter.api.Test;

/**
 * The HTTP contract of {@link AbstractReactiveHttpLimiterTest} on Spring WebFlux (Reactor Netty), one real server
 * per subclass (one per Boot version), plus what is WebFlux's own: only its adapter is woven, and a client that
 * disconnects mid-stream gives its {@code concurrency} permit back once.
 */
abstract class AbstractWebfluxLimiterTest extends AbstractReactiveHttpLimiterTest {

    @Override
    protected String stackRules() {
        return """
                  - id: streams
                    match: { http: { path: /stream/** } }
                    strategy: concurrency
                    limit: 2
                """;
    }

    @Override
    protected int stackRuleCount() {
        return 1;
    }

    @Test
    void onlyTheWebfluxAdapterIsWoven() throws Exception {
        assertThat(http.status("/api/items/woven")).isEqualTo(200);
        ObjectName limiter = new ObjectName("dev.limiter:type=Limiter");
        int[] woven = new int[1];
        await("the limiter MBean").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions().until(() -> {
            woven[0] = (Integer) jmx().connection().getAttribute(limiter, "WovenTypes");
            return true;
        });
        // HttpWebHandlerAdapter; no servlet or mapper exists here, and the rules name no classes
        assertThat(woven[0]).isEqualTo(1);
    }

    @Test
    void aClientThatDisconnectsMidStreamGivesItsPermitBackOnce() throws Exception {
        // twenty clients read the first event of a long stream and hang up: each cancel must release once
        for (int i = 0; i < 20; i++) {
            try (Socket client = openStream("/stream/cut?n=1000&ms=50")) {
                assertThat(readUntil(client, "tick 0")).as("stream %d", i).contains("200");
            }
        }
        awaitPermits("streams", 2);

        // no permit was released twice: the limit still holds exactly 2 streams
        try (Socket first = openStream("/stream/one?n=1000&ms=50");
                Socket second = openStream("/stream/two?n=1000&ms=50")) {
            assertThat(readUntil(first, "tick 0")).contains("200");
            assertThat(readUntil(second, "tick 0")).contains("200");
            assertThat(remaining("streams")).isZero();
            HttpResponse<String> third = http.get("/stream/three?n=1&ms=1");
            assertRejected(third, "streams", Long.MAX_VALUE);
        }
        awaitPermits("streams", 2);
        HttpResponse<String> next = http.get("/stream/next?n=2&ms=1");
        assertThat(next.statusCode()).as(describe(next)).isEqualTo(200);
        assertThat(next.body()).contains("tick 1");
        awaitPermits("streams", 2);
    }

    /** A raw HTTP/1.1 GET whose response the caller reads a little of ({@link #readUntil}) and then hangs up. */
    private Socket openStream(String pathAndQuery) throws IOException {
        Socket socket = new Socket("127.0.0.1", server.port());
        socket.setSoTimeout(20_000);
        OutputStream out = socket.getOutputStream();
        out.write(("GET " + pathAndQuery + " HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept: text/event-stream\r\n\r\n")
                .getBytes(StandardCharsets.US_ASCII));
        out.flush();
        return socket;
    }

    /** What the socket gave until {@code marker} was in it (the status line first). */
    private static String readUntil(Socket socket, String marker) {
        StringBuilder seen = new StringBuilder();
        byte[] buffer = new byte[512];
        try {
            InputStream in = socket.getInputStream();
            while (seen.indexOf(marker) < 0) {
                int n = in.read(buffer);
                if (n < 0) {
                    break;
                }
                seen.append(new String(buffer, 0, n, StandardCharsets.US_ASCII));
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading until " + marker + " after: " + seen, e);
        }
        assertThat(seen.toString()).as("stream").contains(marker);
        return seen.toString();
    }
}
