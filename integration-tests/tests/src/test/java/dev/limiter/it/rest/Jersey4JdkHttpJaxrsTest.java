package dev.limiter.it.rest;

import static dev.limiter.it.harness.RateLimitHeaders.describe;
import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.TestApp;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * The JAX-RS contract on Jersey 4 on the JDK HTTP server: no servlet container, so rules key on global, arg:N
 * and path-param only.
 */
class Jersey4JdkHttpJaxrsTest extends AbstractJaxrsServerTest {

    @Override
    protected TestApp app() {
        return TestApp.JERSEY4_JDK_HTTP;
    }

    @Override
    protected boolean servesOnVirtualThreads() {
        return true; // a virtual-thread-per-task executor
    }

    @Test
    void aKeyFromTheHttpRequestCannotBeComputedWithoutAServletContainerAndOnErrorDecides() {
        // on-error: allow, limit 1: a computed key would reject the second request; none is rejected
        for (int i = 0; i < 4; i++) {
            HttpResponse<String> allowed = http.get("/rest/orders", "X-Api-Key", "alice");
            assertThat(allowed.statusCode()).as("request %d: %s", i + 1, describe(allowed)).isEqualTo(200);
            assertThat(allowed.body()).isEqualTo("orders");
        }
        server.awaitOutput("rule orders-no-request-allow: key header:X-Api-Key needs a servlet container",
                Duration.ofSeconds(10));
        // on-error: reject, limit 100: only the failed key can reject the very first request
        assertRejected(http.get("/rest/orders/1", "X-Api-Key", "alice"), "orders-no-request-reject", 3600);
    }
}
