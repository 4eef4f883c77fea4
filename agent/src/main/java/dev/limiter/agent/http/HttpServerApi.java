package dev.limiter.agent.http;

import java.lang.invoke.MethodHandle;

/**
 * The getters and setters one HTTP server supplies to the one gate ({@link HttpGate}): the request side of
 * {@link RequestView}, plus its method and rule path, the response's few setters a rejection and the rate-limit
 * headers need, and how a request that holds permits gives them back when it ends. A new HTTP server is a subclass
 * of this (its {@link #path} never null), a weave target and an advice; keys, client address, matching, deciding,
 * waiting, rendering and the release are the gate's. Most getters and setters are one method handle each: a
 * binding passes them in its handle table ({@link BindingCache}) and overrides only what is more than one call.
 *
 * <p>Instances are immutable and kept per request (or context) class; {@link #supported} is false when the
 * application's copy of the framework lacks a method the binding needs, and then its requests are not touched
 * (the reason, {@link #problem}, is logged by the gate, throttled).
 */
public abstract class HttpServerApi extends RequestView {

    /** What {@link #writeRejection} returns when the rejection is written and nothing is to be returned. */
    public static final Object WRITTEN = new Object();

    public final boolean supported;
    /** Why not {@link #supported}, for the log; null if supported. */
    public final Throwable problem;

    /**
     * Slots of the server's own getters and setters in a binding's handle table, after the request view's
     * ({@link RequestView#HEADER}...), erased: {@code (request) String} for {@link #method}, {@code (response)
     * boolean} for {@link #committed}, {@code (response, int)} for {@link #status}, {@code (response, String,
     * String)} for {@link #setHeader} (a value they return is dropped). Null where the binding overrides the method.
     */
    protected static final int METHOD = VIEW_HANDLES;
    protected static final int COMMITTED = VIEW_HANDLES + 1;
    protected static final int STATUS = VIEW_HANDLES + 2;
    protected static final int SET_HEADER = VIEW_HANDLES + 3;
    /** The first slot a binding may use for handles of its own. */
    protected static final int OWN_HANDLES = VIEW_HANDLES + 4;

    private final MethodHandle method;
    private final MethodHandle committed;
    private final MethodHandle status;
    private final MethodHandle setHeader;

    /** A binding that overrides every getter and setter. */
    protected HttpServerApi(String server, int capabilities, Throwable problem) {
        this(server, capabilities, null, problem);
    }

    /**
     * A binding whose getters and setters are the handles {@code h} holds at the slots of {@link RequestView} and
     * of this class; {@code problem}: why the binding cannot serve (a method missing in this version), or null.
     */
    protected HttpServerApi(String server, int capabilities, MethodHandle[] h, Throwable problem) {
        super(server, capabilities, h);
        this.supported = problem == null;
        this.problem = problem;
        this.method = ErasedHandles.at(h, METHOD, String.class, Object.class);
        this.committed = ErasedHandles.at(h, COMMITTED, boolean.class, Object.class);
        this.status = ErasedHandles.at(h, STATUS, void.class, Object.class, int.class);
        this.setHeader = ErasedHandles.at(h, SET_HEADER, void.class, Object.class, String.class, String.class);
    }

    /** The HTTP method's name ({@code GET}). */
    public String method(Object request) throws Throwable {
        return (String) method.invokeExact(request);
    }

    /**
     * True if this is the request's first dispatch, the one decided: a servlet container dispatches one request
     * again (forwards, includes, async and error dispatches), and each request is counted once. True by default.
     */
    public boolean firstDispatch(Object request) throws Throwable {
        return true;
    }

    /** True once the status line and headers are out: nothing can be set any more. */
    public boolean committed(Object response) throws Throwable {
        return (boolean) committed.invokeExact(response);
    }

    public void status(Object response, int code) throws Throwable {
        status.invokeExact(response, code);
    }

    public void setHeader(Object response, String name, String value) throws Throwable {
        setHeader.invokeExact(response, name, value);
    }

    /**
     * Writes {@code body} (may be empty; {@code contentType} null without a body) after the status and headers
     * were set, and ends the response; returns what the woven entry returns instead of running the handler (a
     * reactive server's publisher of the write), or {@link #WRITTEN}. Never null.
     */
    public abstract Object writeRejection(Object response, byte[] body, String contentType) throws Throwable;

    /**
     * What the woven entry does when a rejection could not be written (the response was committed, or writing
     * failed): null lets the handler run (a reactive server must return something, and an unanswered request
     * would hang); {@link #WRITTEN} skips it anyway (a servlet container completes the response itself).
     */
    public Object unwritableRejection() {
        return null;
    }

    /**
     * Hands the permits an admitted request holds ({@code exchange.permits}) to whatever ends the request: takes
     * them into a {@link PermitRelease} registered with the server's completion (a publisher's end, a context's
     * end handlers), or leaves them for the entry's exit. On failure the gate releases them at once.
     */
    public abstract void holdUntilEnd(Object request, HttpExchange exchange) throws Throwable;
}
