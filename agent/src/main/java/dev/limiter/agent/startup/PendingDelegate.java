package dev.limiter.agent.startup;

/**
 * A bridge's stand-in delegate while the rules load at start-up: what runs before them waits at the
 * {@link StartupGate}, then goes to the real delegate, once {@link #ready} put it behind this one and in its bridge.
 *
 * @param <D> the bridge's delegate type
 */
abstract class PendingDelegate<D> {

    private final StartupGate gate;
    private volatile D ready;

    PendingDelegate(StartupGate gate) {
        this.gate = gate;
    }

    /** Installs the real delegate behind this one and in the bridge ({@link StartupGate#ready} wakes the waiting). */
    final void ready(D delegate) {
        ready = delegate;
        installInBridge(delegate);
    }

    /** Puts {@code delegate} into this stand-in's bridge. */
    abstract void installInBridge(D delegate);

    /** The real delegate, waiting at the gate for it first: null if the rules did not come in time. */
    final D awaitReady() {
        D delegate = ready;
        if (delegate == null) {
            gate.await();
            delegate = ready;
        }
        return delegate;
    }

    /** The real delegate, or null while the rules load (or if they never came). */
    final D readyNow() {
        return ready;
    }
}
