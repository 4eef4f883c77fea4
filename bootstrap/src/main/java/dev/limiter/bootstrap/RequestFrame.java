package dev.limiter.bootstrap;

/**
 * The per-thread record of the request being served: the servlet call depth, the request and response objects
 * while the outermost entry runs, whether the request goes unchecked, and one slot the delegate owns for its
 * scratch buffers.
 *
 * <p>One instance per thread, reused for every request, so the request path allocates nothing. It is a plain
 * mutable class (not a record) for that reason, and it is only ever touched by its own thread.
 */
public final class RequestFrame {

    int depth;
    boolean started;
    BridgeDelegate delegate;
    private Object request;
    private Object response;
    private Object scratch;
    private boolean unchecked;

    RequestFrame() {
    }

    /** The servlet request (javax or jakarta) being served on this thread, or null between requests. */
    public Object request() {
        return request;
    }

    /** The servlet response that goes with {@link #request()}, or null between requests. */
    public Object response() {
        return response;
    }

    /** Per-thread state the delegate keeps across requests (buffers); null until it sets one. */
    public Object scratch() {
        return scratch;
    }

    /** Stores the delegate's per-thread state; it survives from request to request on this thread. */
    public void scratch(Object value) {
        scratch = value;
    }

    /**
     * Marks the current request as let through without a check (the rules were not there in time), so its end
     * releases nothing. Cleared when the request ends.
     */
    public void markUnchecked() {
        unchecked = true;
    }

    /** True if {@link #markUnchecked()} was called for the current request. */
    public boolean unchecked() {
        return unchecked;
    }

    void begin(Object request, Object response) {
        this.request = request;
        this.response = response;
    }

    void end() {
        request = null;
        response = null;
        started = false;
        unchecked = false;
        delegate = null;
    }
}
