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
final class PendingMethodDelegate implements MethodDelegate {

    private final StartupGate gate;
    private volatile MethodDelegate ready;

    PendingMethodDelegate(StartupGate gate) {
        this.gate = gate;
    }

    /** Installs the real delegate behind this one and in the bridge ({@link StartupGate#ready} wakes the waiting). */
    void ready(MethodDelegate delegate) {
        ready = delegate;
        LimiterBridge.installMethods(delegate);
    }

    @Override
    public Object onMethodEnter(int site, Object keyArgument, long cost) {
        MethodDelegate delegate = ready;
        if (delegate == null) {
            gate.await();
            delegate = ready;
        }
        return delegate == null ? null : delegate.onMethodEnter(site, keyArgument, cost);
    }

    @Override
    public void onMethodExit(int site, Object token) {
        MethodDelegate delegate = ready;
        if (delegate != null) {
            delegate.onMethodExit(site, token);
        }
    }

    @Override
    public Object rejectionResponse(Object exception) {
        MethodDelegate delegate = ready;
        return delegate == null ? null : delegate.rejectionResponse(exception);
    }
}
