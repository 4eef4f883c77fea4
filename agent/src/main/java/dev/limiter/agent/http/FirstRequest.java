package dev.limiter.agent.http;

import java.util.concurrent.CountDownLatch;

/**
 * Whether the application has served its first request: the JMX registration waits for it ({@code jmx.JmxGate}).
 * Any server's gate says so at its first request; a servlet container's first-request delegate says so when that
 * request ends. One volatile read per request after that.
 */
public final class FirstRequest {

    /** Open once the first request was seen. */
    public static final CountDownLatch LATCH = new CountDownLatch(1);

    private static volatile boolean seen;

    private FirstRequest() {
    }

    /** A request arrived (or ended): idempotent, cheap after the first call. */
    public static void seen() {
        if (!seen) {
            served();
        }
    }

    /** The application has served a request. Idempotent. */
    public static void served() {
        seen = true;
        LATCH.countDown();
    }
}
