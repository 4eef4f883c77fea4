package dev.limiter.bootstrap;

import java.util.concurrent.atomic.LongAdder;

/**
 * The single entry point woven code calls. Inlined servlet advice calls {@link #servletEnter} and
 * {@link #servletExit}, woven JAX-RS and plain methods call {@link #methodEnter} and {@link #methodExit};
 * everything else happens in the {@link BridgeDelegate} and {@link MethodDelegate} the agent installs.
 *
 * <p>Why this class is on the bootstrap class path: advice is inlined into application classes loaded by any
 * loader (the web-app loader, a fat-jar loader, the server's own loader); only the bootstrap loader is visible
 * from all of them. So this class uses JDK types only and holds nothing but a volatile delegate and a
 * per-thread {@link RequestFrame}.
 *
 * <p>The call-depth guard lives here: only the outermost servlet/filter entry of a thread asks the delegate,
 * so a filter chain, a framework servlet behind a filter, forwards and includes are checked once. Until a
 * delegate is installed, or while the bridge is disabled, every call is allowed. Nothing thrown by the
 * delegate escapes into the application: it is counted in {@link #internalErrors()} and the call proceeds.
 */
public final class LimiterBridge {

    /** An anonymous class, not {@code withInitial(RequestFrame::new)}: no lambda to spin in premain. */
    private static final ThreadLocal<RequestFrame> FRAME = new ThreadLocal<>() {
        @Override
        protected RequestFrame initialValue() {
            return new RequestFrame();
        }
    };
    private static final LongAdder INTERNAL_ERRORS = new LongAdder();

    private static volatile BridgeDelegate delegate;
    private static volatile MethodDelegate methods;
    private static volatile boolean enabled = true;

    private LimiterBridge() {
    }

    /**
     * Servlet/filter entry. Returns true when the request was rejected (the response is written), so the
     * advice skips the method body.
     */
    public static boolean servletEnter(Object request, Object response) {
        RequestFrame frame = FRAME.get();
        if (frame.depth++ > 0) {
            return false;
        }
        frame.begin(request, response);
        BridgeDelegate current = delegate;
        if (current == null || !enabled) {
            return false;
        }
        frame.delegate = current;
        frame.started = true;
        try {
            return current.onRequestStart(frame);
        } catch (Throwable t) {
            INTERNAL_ERRORS.increment();
            return false;
        }
    }

    /** Servlet/filter exit; runs however the method ended, including after a rejection. */
    public static void servletExit() {
        RequestFrame frame = FRAME.get();
        if (frame.depth == 0) {
            return;
        }
        if (--frame.depth > 0) {
            return;
        }
        try {
            if (frame.started) {
                frame.delegate.onRequestEnd(frame);
            }
        } catch (Throwable t) {
            INTERNAL_ERRORS.increment();
        } finally {
            frame.end();
        }
    }

    /**
     * The servlet request being served on the calling thread (javax or jakarta, as {@code Object}), or null
     * outside a request. Later checks on the same thread (JAX-RS, plain methods) key on it.
     */
    public static Object currentRequest() {
        RequestFrame frame = FRAME.get();
        return frame.depth > 0 ? frame.request() : null;
    }

    /**
     * Entry of a woven request runner that is not a servlet (RESTEasy Reactive's handler chain on Vert.x):
     * {@code request} (the runtime's request object) becomes the thread's {@link #currentRequest()} until the
     * matching {@link #requestExit()}, so woven resource methods key on it. Nothing is checked here, and inside a
     * servlet request the servlet request stays current.
     */
    public static void requestEnter(Object request) {
        RequestFrame frame = FRAME.get();
        if (frame.depth++ == 0) {
            frame.begin(request, null);
        }
    }

    /** Exit of a woven request runner; runs however it ended. */
    public static void requestExit() {
        RequestFrame frame = FRAME.get();
        if (frame.depth > 0 && --frame.depth == 0) {
            frame.end();
        }
    }

    /**
     * Entry of a woven JAX-RS resource method or plain method (see {@link MethodDelegate#onMethodEnter}).
     * Returns null (run, nothing to release), a {@link Throwable} (throw it instead of running the method), or
     * a token for {@link #methodExit}. Until a delegate is installed, or while the bridge is disabled, null.
     */
    public static Object methodEnter(int site, Object keyArgument, long cost) {
        MethodDelegate current = methods;
        if (current == null || !enabled) {
            return null;
        }
        try {
            return current.onMethodEnter(site, keyArgument, cost);
        } catch (Throwable t) {
            INTERNAL_ERRORS.increment();
            return null;
        }
    }

    /**
     * The cost a woven method's array or collection argument stands for ({@code cost: arg:N}): its length or
     * size; 0 (which counts as 1) for null, or if {@code size()} throws (counted as an internal error). Called
     * from woven code with the argument as it is, so it allocates nothing.
     */
    public static long sizeOf(Object argument) {
        try {
            if (argument instanceof java.util.Collection<?> collection) {
                return collection.size();
            }
            return argument == null ? 0 : java.lang.reflect.Array.getLength(argument);
        } catch (Throwable t) {
            INTERNAL_ERRORS.increment();
            return 0;
        }
    }

    /**
     * Exit of a woven method, with what its {@link #methodEnter} returned: a token (handed to the delegate), or
     * null (nothing held: nothing to do). Never a Throwable: the woven code throws that before the body.
     */
    public static void methodExit(int site, Object token) {
        MethodDelegate current = methods;
        if (token == null || current == null) {
            return;
        }
        try {
            current.onMethodExit(site, token);
        } catch (Throwable t) {
            INTERNAL_ERRORS.increment();
        }
    }

    /**
     * For woven {@code ExceptionMapper.toResponse}: the limiter's own rejection response when {@code exception}
     * is a rejection the limiter threw, else null (the application's mapper runs as usual).
     */
    public static Object rejectionResponse(Object exception) {
        MethodDelegate current = methods;
        if (current == null || exception == null) {
            return null;
        }
        try {
            return current.rejectionResponse(exception);
        } catch (Throwable t) {
            INTERNAL_ERRORS.increment();
            return null;
        }
    }

    /** Installs the agent's delegate for woven methods (null uninstalls: every method call is allowed). */
    public static void installMethods(MethodDelegate newDelegate) {
        methods = newDelegate;
    }

    /** The installed method delegate, or null. */
    public static MethodDelegate methodDelegate() {
        return methods;
    }

    /** Installs the agent's delegate (null uninstalls: every call is then allowed). */
    public static void install(BridgeDelegate newDelegate) {
        delegate = newDelegate;
    }

    /** The installed delegate, or null. */
    public static BridgeDelegate delegate() {
        return delegate;
    }

    /** Turns all checking on or off at run time (JMX); off means every call is allowed. */
    public static void setEnabled(boolean on) {
        enabled = on;
    }

    public static boolean isEnabled() {
        return enabled;
    }

    /** Throwables the bridge caught from the delegate (the delegate counts its own handled errors itself). */
    public static long internalErrors() {
        return INTERNAL_ERRORS.sum();
    }

    /** Counts an error caught elsewhere in the limiter that belongs to no rule. */
    public static void countInternalError() {
        INTERNAL_ERRORS.increment();
    }
}
