package dev.limiter.agent.grpc;

import dev.limiter.agent.decision.HeldPermits;
import dev.limiter.bootstrap.LimiterBridge;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Gives back a gRPC call's concurrency permits when the call ends: run by the releasing listener's
 * {@code onComplete} or {@code onCancel} ({@link GrpcListeners}), or at once if {@code startCall} threw or the
 * listener could not be wrapped. The released flag makes the give-back happen once whatever runs first; it is
 * this object itself (it extends {@link AtomicBoolean}), so a call holding permits allocates this object, the
 * permits it took over ({@link HeldPermits#takeAll}) and the listener around the service's.
 */
final class CallRelease extends AtomicBoolean implements Runnable {

    private static final long serialVersionUID = 1L;

    private final transient HeldPermits permits;
    /** The gRPC API of the call's loader, for the listener that runs this. */
    final transient GrpcApi api;

    CallRelease(HeldPermits permits, GrpcApi api) {
        this.permits = permits;
        this.api = api;
    }

    /** Gives the permits back, once; never throws (it runs inside grpc-java's call-closing code). */
    @Override
    public void run() {
        if (compareAndSet(false, true)) {
            try {
                permits.releaseTo(0);
            } catch (Throwable t) {
                LimiterBridge.countInternalError();
            }
        }
    }
}
