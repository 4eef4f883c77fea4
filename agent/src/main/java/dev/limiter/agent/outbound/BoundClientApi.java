package dev.limiter.agent.outbound;

import dev.limiter.agent.diagnostics.ThrottledLog;

/**
 * A client library's {@link OutboundApi} bound through method handles in the application's loader: it knows
 * whether that binding failed (this version of the library is not supported: its calls run unchecked), and says
 * so once.
 */
public abstract class BoundClientApi implements OutboundApi {

    private final Throwable problem;
    private volatile boolean problemSaid;

    protected BoundClientApi(Throwable problem) {
        this.problem = problem;
    }

    /** True if this binding serves; else says once, naming {@code client}, that its calls run unchecked. */
    public final boolean usable(ThrottledLog log, String client) {
        if (problem == null) {
            return true;
        }
        if (!problemSaid) {
            problemSaid = true;
            log.warn("limiter: this " + client + " is not supported; its calls run unlimited", problem);
        }
        return false;
    }
}
