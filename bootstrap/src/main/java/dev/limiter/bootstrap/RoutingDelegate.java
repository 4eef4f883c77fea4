package dev.limiter.bootstrap;

/**
 * The agent's side of a woven HTTP router (Vert.x Web's {@code RoutingContextImpl.route()}, which starts routing a
 * request once, before any route handler runs), called through {@link RoutingBridge}. The routing context is the
 * framework's own object typed as {@code Object}: the bootstrap loader cannot see Vert.x, and the agent reaches it
 * through method handles.
 */
public interface RoutingDelegate {

    /**
     * Called once per request, before routing, on the thread that routes it (a Vert.x event loop). Whatever must
     * happen when the request ends (concurrency permits) the delegate registers on the context itself.
     *
     * @return true if the delegate answered the request (the rejection is written): routing must not run
     */
    boolean onRouting(Object context);
}
