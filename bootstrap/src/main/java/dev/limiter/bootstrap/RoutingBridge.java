package dev.limiter.bootstrap;

/**
 * The entry point a woven HTTP router calls before it routes a request (Vert.x Web's
 * {@code RoutingContextImpl.route()}, on Quarkus and any Vert.x Web application):
 *
 * <pre>
 *   try { if (RoutingBridge.enter(this)) return; } catch (Throwable t) { }   // true: the rejection is written
 *   ... routing as before
 * </pre>
 *
 * <p>Why a class of its own beside {@link ReactiveBridge}: the router returns nothing to wrap and ends nothing;
 * the request's end is a callback the delegate registers on the routing context, so nothing is kept per thread
 * between calls. Nothing thrown by the delegate reaches the application: it is counted in
 * {@link LimiterBridge#internalErrors()} and the request is routed unchanged. While the bridge is disabled
 * ({@link LimiterBridge#setEnabled}) or no delegate is installed, every request is routed untouched.
 */
public final class RoutingBridge {

    private static volatile RoutingDelegate delegate;

    private RoutingBridge() {
    }

    /** Before routing: true if the request was answered (rejected) and must not be routed. */
    public static boolean enter(Object context) {
        RoutingDelegate current = delegate;
        if (current == null || !LimiterBridge.isEnabled()) {
            return false;
        }
        try {
            return current.onRouting(context);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            return false;
        }
    }

    /** Installs the agent's delegate (null uninstalls: every request is then routed untouched). */
    public static void install(RoutingDelegate newDelegate) {
        delegate = newDelegate;
    }

    /** The installed delegate, or null. */
    public static RoutingDelegate delegate() {
        return delegate;
    }
}
