package dev.limiter.bootstrap;

/**
 * What the agent plugs into {@link LimiterBridge}: the decision code, which lives in the agent's isolated class
 * loader together with the rules, the strategies and the servlet accessors.
 *
 * <p>Only JDK and bootstrap types appear here because woven code in any class loader reaches the agent through
 * this interface. Implementations must not throw; the bridge still catches anything they do throw and lets the
 * request through.
 */
public interface BridgeDelegate {

    /**
     * Called once per request, at the outermost servlet or filter entry on this thread.
     *
     * @return true if the request is rejected and the response has already been written: the woven method's
     *     body is then skipped
     */
    boolean onRequestStart(RequestFrame frame);

    /** Called when the outermost entry returns or throws, for every {@link #onRequestStart} call. */
    void onRequestEnd(RequestFrame frame);
}
