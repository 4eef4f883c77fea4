package dev.limiter.agent.startup;

import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.bootstrap.ClientDelegate;

/**
 * The client bridge's delegate while the rules load at start-up: an outgoing call made before them (a client the
 * application calls as it starts) waits at the {@link StartupGate}, then is decided by the delegate the HTTP
 * client's entry point installed meanwhile. If the rules did not come in time the call goes out unchecked, holding
 * nothing.
 */
final class PendingClientDelegate implements ClientDelegate {

    private final StartupGate gate;

    PendingClientDelegate(StartupGate gate) {
        this.gate = gate;
    }

    @Override
    public Object onCallStart(Object client, Object request, Object handler, Object push, boolean async) {
        gate.await();
        ClientDelegate installed = ClientBridge.delegate();
        return installed == null || installed == this ? null
                : installed.onCallStart(client, request, handler, push, async);
    }

    /** Never reached: a token is held only by the installed delegate, which the bridge then calls itself. */
    @Override
    public Object onExchangeReturn(Object result, Object token) {
        ClientDelegate installed = ClientBridge.delegate();
        return installed == null || installed == this ? result : installed.onExchangeReturn(result, token);
    }

    @Override
    public void onExchangeFailed(Object token) {
        ClientDelegate installed = ClientBridge.delegate();
        if (installed != null && installed != this) {
            installed.onExchangeFailed(token);
        }
    }
}
