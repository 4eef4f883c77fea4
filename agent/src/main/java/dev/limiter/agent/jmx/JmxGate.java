package dev.limiter.agent.jmx;

import dev.limiter.agent.http.FirstRequest;
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

    /**
     * How long after the first request's end the registration still waits: the request ends when the servlet
     * returns, before the container has committed and written its response, and creating the MBean server then
     * delayed that first response by ~8 ms on 2 cores (Jetty 9.4, {@code scripts/startup-overhead}).
     */
    static final long SETTLE_MILLIS = 250;

    /** Opened at the first request ({@link FirstRequest}: the servlet delegate opens it when that request ends). */
    static final CountDownLatch FIRST_REQUEST = FirstRequest.LATCH;

    private JmxGate() {
    }

    /** The application has served a request: registration may start. Idempotent. */
    public static void firstRequestServed() {
        FirstRequest.served();
    }

    /** True once a first request has been served. */
    public static boolean isOpen() {
        return FIRST_REQUEST.getCount() == 0;
    }

    /**
     * Waits for {@code gate} to open, at most {@value #MAX_WAIT_MILLIS} ms, and once it has opened another
     * {@value #SETTLE_MILLIS} ms.
     */
    static void await(CountDownLatch gate) throws InterruptedException {
        if (gate.await(MAX_WAIT_MILLIS, TimeUnit.MILLISECONDS)) {
            Thread.sleep(SETTLE_MILLIS);
        }
    }
}
