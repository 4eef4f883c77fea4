package dev.limiter.agent.startup;

import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.MethodDelegate;

/**
 * The bridge's delegate for woven methods while the rules load at start-up: a call that comes before them (a
 * {@code @Limit} method the application calls as it starts) waits at the {@link StartupGate} and is then checked
 * by the real method limiter. Replaced by the real delegate as soon as the rules are in.
 *
 * <p>A call that ran unchecked (the rules did not come in time) holds no token, so its exit releases nothing.
 */
final class PendingMethodDelegate extends PendingDelegate<MethodDelegate> implements MethodDelegate {

    PendingMethodDelegate(StartupGate gate) {
        super(gate);
    }

    @Override
    void installInBridge(MethodDelegate delegate) {
        LimiterBridge.installMethods(delegate);
    }

    @Override
    public Object onMethodEnter(int site, Object keyArgument, long cost) {
        MethodDelegate delegate = awaitReady();
        return delegate == null ? null : delegate.onMethodEnter(site, keyArgument, cost);
    }

    @Override
    public void onMethodExit(int site, Object token) {
        MethodDelegate delegate = readyNow();
        if (delegate != null) {
            delegate.onMethodExit(site, token);
        }
    }

    @Override
    public Object rejectionResponse(Object exception) {
        MethodDelegate delegate = readyNow();
        return delegate == null ? null : delegate.rejectionResponse(exception);
    }
}
