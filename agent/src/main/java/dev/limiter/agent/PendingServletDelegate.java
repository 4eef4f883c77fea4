package dev.limiter.agent;

import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;

/**
 * The bridge's servlet delegate while the rules load at start-up ({@link PendingRules}): a request that
 * arrives before them waits (bounded) and is then checked by the real limiter, so no request slips through
 * unlimited because the agent was still parsing. Replaced by the real delegate as soon as the rules are in, so
 * requests after that never see this class.
 *
 * <p>A request that started here ends here: its end is passed to the delegate its start went to, and nowhere
 * if the rules did not come in time and it ran unchecked (so no permit it never took is released).
 */
final class PendingServletDelegate implements BridgeDelegate {

    /** Marks, in the frame's scratch slot, a request that ran unchecked. */
    private static final Object UNCHECKED = new Object();

    private final PendingRules rules;
    private final long waitMillis;
    private volatile BridgeDelegate ready;

    PendingServletDelegate(PendingRules rules) {
        this(rules, PendingRules.WAIT_MILLIS);
    }

    PendingServletDelegate(PendingRules rules, long waitMillis) {
        this.rules = rules;
        this.waitMillis = waitMillis;
    }

    /** Installs the real delegate behind this one and in the bridge. */
    void ready(BridgeDelegate delegate) {
        ready = delegate;
        LimiterBridge.install(delegate);
    }

    @Override
    public boolean onRequestStart(RequestFrame frame) {
        BridgeDelegate delegate = ready;
        if (delegate == null) {
            rules.await(waitMillis);
            delegate = ready;
        }
        if (delegate == null) {
            frame.scratch(UNCHECKED);
            return false;
        }
        return delegate.onRequestStart(frame);
    }

    @Override
    public void onRequestEnd(RequestFrame frame) {
        if (frame.scratch() == UNCHECKED) {
            frame.scratch(null);
            return;
        }
        BridgeDelegate delegate = ready;
        if (delegate != null) {
            delegate.onRequestEnd(frame);
        }
    }
}
