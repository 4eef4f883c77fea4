package dev.limiter.agent.startup;

import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;

/**
 * The bridge's servlet delegate while the rules load at start-up: a request that arrives before them waits at
 * the {@link StartupGate} and is then checked by the real limiter, so no request slips through unlimited because
 * the agent was still parsing. Replaced by the real delegate as soon as the rules are in, so requests after that
 * never see this class.
 *
 * <p>A request that started here ends here: its end is passed to the delegate its start went to, and nowhere
 * if the rules did not come in time and it ran unchecked (so no permit it never took is released).
 */
final class PendingServletDelegate extends PendingDelegate<BridgeDelegate> implements BridgeDelegate {

    PendingServletDelegate(StartupGate gate) {
        super(gate);
    }

    @Override
    void installInBridge(BridgeDelegate delegate) {
        LimiterBridge.install(delegate);
    }

    @Override
    public boolean onRequestStart(RequestFrame frame) {
        BridgeDelegate delegate = awaitReady();
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
        BridgeDelegate delegate = readyNow();
        if (delegate != null) {
            delegate.onRequestEnd(frame);
        }
    }
}
