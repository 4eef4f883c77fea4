package dev.limiter.agent.outbound;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import java.lang.invoke.MethodHandle;

/**
 * A client library's {@link OutboundApi} bound through method handles in the application's loader, as the HTTP
 * servers' bindings are ({@link BindingCache}, {@link ErasedHandles}): its handle table holds the getters every
 * client has at the slots below, then the client's own; typed calls of any slot are {@link #text},
 * {@link #object} and {@link #number}. It knows whether the binding failed (this version of the library is not
 * supported: its calls run unchecked) and says so once.
 */
public abstract class BoundClientApi implements OutboundApi {

    /**
     * Slots every client's table fills, erased: {@code (request) String} for the method's name,
     * {@code (request, String) String} for a request header's first value, {@code (response) int} for the status,
     * {@code (response, String) String} for a response header's first value. A binding that overrides
     * {@link #header} or {@link #retryAfter} may leave their slot empty.
     */
    protected static final int METHOD = 0;
    protected static final int HEADER = 1;
    protected static final int STATUS = 2;
    protected static final int RESPONSE_HEADER = 3;
    /** The first slot a binding may use for handles of its own. */
    protected static final int OWN_HANDLES = 4;

    private final MethodHandle[] h;
    /** Why this binding cannot serve, if it cannot. */
    public final BindingProblem problem;

    /** {@code h}: the erased table; {@code problem}: why the binding cannot serve, or null. */
    protected BoundClientApi(MethodHandle[] h, Throwable problem) {
        this.h = h;
        this.problem = new BindingProblem(problem);
    }

    /** The request's method ({@code GET}). */
    public final String method(Object request) throws Throwable {
        return text(METHOD, request);
    }

    @Override
    public String header(Object request, String name) throws Throwable {
        return (String) h[HEADER].invokeExact(request, name);
    }

    @Override
    public final int status(Object response) throws Throwable {
        return number(STATUS, response);
    }

    @Override
    public String retryAfter(Object response) throws Throwable {
        return (String) h[RESPONSE_HEADER].invokeExact(response, "Retry-After");
    }

    /** The {@code (Object) String} handle at {@code slot}, called on {@code target}. */
    protected final String text(int slot, Object target) throws Throwable {
        return (String) h[slot].invokeExact(target);
    }

    /** The {@code (Object) Object} handle at {@code slot}, called on {@code target}. */
    protected final Object object(int slot, Object target) throws Throwable {
        return (Object) h[slot].invokeExact(target);
    }

    /** The {@code (Object) int} handle at {@code slot}, called on {@code target}. */
    protected final int number(int slot, Object target) throws Throwable {
        return (int) h[slot].invokeExact(target);
    }

    /** The handle at {@code slot}, for a call of another shape. */
    protected final MethodHandle handle(int slot) {
        return h[slot];
    }
}
