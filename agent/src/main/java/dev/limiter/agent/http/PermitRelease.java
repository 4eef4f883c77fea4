package dev.limiter.agent.http;

import dev.limiter.agent.decision.HeldPermits;
import dev.limiter.bootstrap.LimiterBridge;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Gives back the permits of a call that ends after its entry returned (a reactive exchange, a routed request, a
 * gRPC call, an async servlet request) exactly once, whichever way the call ends and whatever signals first: a
 * publisher's {@code doFinally} ({@link Consumer}), a completion stage ({@link BiConsumer}), a listener's
 * {@code onComplete} or {@code onCancel} ({@link Runnable}), or the entry itself when handing over failed.
 *
 * <p>One error policy for every server: a failure while releasing is counted in the bridge's internal errors and
 * never thrown (this runs inside the server's completion code). The flag is this object itself (it extends
 * {@link AtomicBoolean}), so a call that holds permits allocates this one object, the permits it took over
 * ({@link HeldPermits#takeAll}) and whatever the server needs to call it back.
 */
public final class PermitRelease extends AtomicBoolean
        implements Runnable, Consumer<Object>, BiConsumer<Object, Throwable> {

    private static final long serialVersionUID = 1L;

    private final transient HeldPermits permits;
    /** What the binding needs to register this with the server's completion (its API), or null. */
    public final transient Object binding;

    /** Takes over every permit {@code from} holds ({@code from} is left holding none). */
    public PermitRelease(HeldPermits from, Object binding) {
        this.permits = from.takeAll();
        this.binding = binding;
    }

    /** Gives the permits back, once; never throws. */
    public void release() {
        if (compareAndSet(false, true)) {
            try {
                permits.releaseTo(0);
            } catch (Throwable t) {
                LimiterBridge.countInternalError();
            }
        }
    }

    /** True once released. */
    public boolean released() {
        return get();
    }

    @Override
    public void run() {
        release();
    }

    /** A publisher's end: how it ended (complete, error, cancel) does not matter. */
    @Override
    public void accept(Object signal) {
        release();
    }

    /** A completion stage's end: how it ended does not matter. */
    @Override
    public void accept(Object result, Throwable failure) {
        release();
    }
}
