package dev.limiter.agent.startup;

import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * The bridge's servlet delegate while the rules load at start-up: a request that arrives before them waits
 * (bounded by {@link #WAIT_MILLIS}) and is then checked by the real limiter, so no request slips through
 * unlimited because the agent was still parsing. Replaced by the real delegate as soon as the rules are in, so
 * requests after that never see this class.
 *
 * <p>A request that started here ends here: its end is passed to the delegate its start went to, and nowhere
 * if the rules did not come in time and it ran unchecked (so no permit it never took is released).
 */
final class PendingServletDelegate implements BridgeDelegate {

    /** How long a request waits for the rules at start-up before it goes on without them. */
    static final long WAIT_MILLIS = 10_000;

    private final CountDownLatch settled = new CountDownLatch(1);
    private final long waitMillis;
    private volatile BridgeDelegate ready;

    PendingServletDelegate() {
        this(WAIT_MILLIS);
    }

    PendingServletDelegate(long waitMillis) {
        this.waitMillis = waitMillis;
    }

    /** Installs the real delegate behind this one and in the bridge, and wakes the requests that wait. */
    void ready(BridgeDelegate delegate) {
        ready = delegate;
        LimiterBridge.install(delegate);
        settled.countDown();
    }

    /** The rules will not come (the parse failed): waiting requests go on unchecked at once. */
    void failed() {
        settled.countDown();
    }

    @Override
    public boolean onRequestStart(RequestFrame frame) {
        BridgeDelegate delegate = ready;
        if (delegate == null) {
            try {
                settled.await(waitMillis, TimeUnit.MILLISECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            delegate = ready;
        }
        if (delegate == null) {
            frame.markUnchecked();
            return false;
        }
        return delegate.onRequestStart(frame);
    }

    @Override
    public void onRequestEnd(RequestFrame frame) {
        if (frame.unchecked()) {
            return;
        }
        BridgeDelegate delegate = ready;
        if (delegate != null) {
            delegate.onRequestEnd(frame);
        }
    }
}
