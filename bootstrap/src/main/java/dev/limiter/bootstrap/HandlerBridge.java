package dev.limiter.bootstrap;

/**
 * The entry point a woven request handler calls: a void method that serves one request to its end on the calling
 * thread, its request and response its last two arguments (Helidon 4's {@code HttpRoutingImpl.route(ctx, request,
 * response)}, on the request's virtual thread):
 *
 * <pre>
 *   Object token;
 *   try { token = HandlerBridge.enter(request, response); } catch (Throwable t) { token = null; }
 *   if (token == HandlerBridge.ANSWERED) return;                     // the rejection is written
 *   try { body, where every return first calls HandlerBridge.exit(token) }
 *   catch (any t) { HandlerBridge.exit(token); throw t; }
 * </pre>
 *
 * <p>Why a class of its own beside {@link RoutingBridge} and {@link ReactiveBridge}: the handler ends when the
 * method returns, so what an admitted request holds is given back at the method's exit, as a servlet's is; but
 * unlike the servlet bridge nothing is kept per thread (a virtual thread per request would make each thread's
 * first request pay for it): what the delegate holds travels in the woven method's own local, the token, a
 * {@link Runnable} that gives it back. A token runs at the exit whatever delegate is installed by then. Nothing
 * thrown by the delegate or the token reaches the server: it is counted in {@link LimiterBridge#internalErrors()}
 * and the request is served unchanged. While the bridge is disabled ({@link LimiterBridge#setEnabled}) or no
 * delegate is installed, every request is served untouched.
 */
public final class HandlerBridge {

    /** What {@link #enter} returns when the request was answered (rejected): the handler must not run. */
    public static final Object ANSWERED = new Object();

    private static volatile HandlerDelegate delegate;

    private HandlerBridge() {
    }

    /**
     * Before the handler: null to run it with nothing to give back, {@link #ANSWERED} to return at once, or a token
     * ({@link Runnable}) to hand to {@link #exit} when the handler ends.
     */
    public static Object enter(Object request, Object response) {
        HandlerDelegate current = delegate;
        if (current == null || !LimiterBridge.isEnabled()) {
            return null;
        }
        try {
            return current.onHandlerEnter(request, response);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            return null;
        }
    }

    /** At each way out of the handler (a return or a throw): runs {@code token} if it is one; never throws. */
    public static void exit(Object token) {
        if (token instanceof Runnable) {
            try {
                ((Runnable) token).run();
            } catch (Throwable t) {
                LimiterBridge.countInternalError();
            }
        }
    }

    /** Installs the agent's delegate (null uninstalls: every request is then served untouched). */
    public static void install(HandlerDelegate newDelegate) {
        delegate = newDelegate;
    }

    /** The installed delegate, or null. */
    public static HandlerDelegate delegate() {
        return delegate;
    }
}
