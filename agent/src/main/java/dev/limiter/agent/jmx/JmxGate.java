package dev.limiter.agent.jmx;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * When the MBeans may be registered by default: once the application has served its first request, or
 * {@value #MAX_WAIT_MILLIS} ms after the agent started if none comes (a batch job, a server that is never
 * called). Registering means creating the platform MBean server when the application has not (~70 ms of CPU in
 * a Jetty 12 start, measured with {@code scripts/startup-overhead}); nothing needs it before the first request,
 * so it no longer competes with the application's start-up. An explicit {@value JmxStarter#DELAY_PROPERTY}
 * bypasses the gate.
 */
public final class JmxGate {

    /** The latest the default registration waits for a first request. */
    static final long MAX_WAIT_MILLIS = 10_000;

    /** Opened by the agent's servlet delegate when the first request ends. */
    static final CountDownLatch FIRST_REQUEST = new CountDownLatch(1);

    private JmxGate() {
    }

    /** The application has served a request: registration may start. Idempotent. */
    public static void firstRequestServed() {
        FIRST_REQUEST.countDown();
    }

    /** True once a first request has been served. */
    public static boolean isOpen() {
        return FIRST_REQUEST.getCount() == 0;
    }

    /** Waits for {@code gate} to open, at most {@value #MAX_WAIT_MILLIS} ms. */
    static void await(CountDownLatch gate) throws InterruptedException {
        gate.await(MAX_WAIT_MILLIS, TimeUnit.MILLISECONDS);
    }
}
