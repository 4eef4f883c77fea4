package dev.limiter.agent.startup;

import dev.limiter.agent.jmx.JmxGate;
import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;

/**
 * The servlet delegate until the application's first request has ended: it passes every call to the real
 * delegate, and at that first end opens the {@link JmxGate} (work deferred past start-up) and puts the real
 * delegate in the bridge, so later requests never pass through here.
 *
 * <p>A request that started here also ends here (the bridge remembers the delegate a request started with), so
 * the forwarding stays correct after the swap.
 */
final class FirstRequestDelegate implements BridgeDelegate {

    private final BridgeDelegate real;
    private volatile boolean served;

    FirstRequestDelegate(BridgeDelegate real) {
        this.real = real;
    }

    @Override
    public boolean onRequestStart(RequestFrame frame) {
        return real.onRequestStart(frame);
    }

    @Override
    public void onRequestEnd(RequestFrame frame) {
        try {
            real.onRequestEnd(frame);
        } finally {
            if (!served) {
                served = true;
                if (LimiterBridge.delegate() == this) {
                    LimiterBridge.install(real);
                }
                JmxGate.firstRequestServed();
            }
        }
    }
}
