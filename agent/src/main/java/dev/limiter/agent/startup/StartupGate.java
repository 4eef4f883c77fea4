package dev.limiter.agent.startup;

import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.MethodDelegate;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * What a request or a woven method call waits at while the rules load at start-up (bounded by
 * {@link #WAIT_MILLIS}): the bridge's stand-in delegates ({@link PendingServletDelegate},
 * {@link PendingMethodDelegate}) until the real ones are in, so nothing that runs before the parse ends slips
 * through unlimited. A {@code @Limit} method the application calls in its first milliseconds is limited like a
 * request that comes early.
 *
 * <p>The thread that loads the rules never waits here (a woven method it reached through the application's
 * logging, say, would wait for itself): its calls run unchecked.
 */
final class StartupGate {

    /** How long a request or call waits for the rules at start-up before it goes on without them. */
    static final long WAIT_MILLIS = 10_000;

    private final CountDownLatch settled = new CountDownLatch(1);
    private final long waitMillis;
    private volatile Thread loader;
    final PendingServletDelegate servlets = new PendingServletDelegate(this);
    final PendingMethodDelegate methods = new PendingMethodDelegate(this);
    final PendingClientDelegate clients = new PendingClientDelegate(this);

    StartupGate() {
        this(WAIT_MILLIS);
    }

    StartupGate(long waitMillis) {
        this.waitMillis = waitMillis;
    }

    /** Puts the stand-ins into the bridge. */
    void install() {
        LimiterBridge.install(servlets);
        LimiterBridge.installMethods(methods);
        ClientBridge.install(clients);
    }

    /** The thread that will load the rules: its own calls never wait. */
    void loadedBy(Thread thread) {
        loader = thread;
    }

    /** Installs the real delegates behind the stand-ins and in the bridge, and wakes what waits. */
    void ready(BridgeDelegate servletDelegate, MethodDelegate methodDelegate) {
        methods.ready(methodDelegate);
        servlets.ready(servletDelegate);
        settled.countDown();
    }

    /** The rules will not come (the parse failed): what waits goes on unchecked at once. */
    void failed() {
        settled.countDown();
    }

    /** Waits until the rules are in, have failed, or the bound has passed; at once on the loading thread. */
    void await() {
        if (Thread.currentThread() == loader) {
            return;
        }
        try {
            settled.await(waitMillis, TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
