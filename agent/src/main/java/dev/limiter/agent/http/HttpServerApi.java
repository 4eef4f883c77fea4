package dev.limiter.agent.http;

/**
 * The getters and setters one HTTP server supplies to the one gate ({@link HttpGate}): the request side of
 * {@link RequestView}, plus its method and rule path, the response's few setters a rejection and the rate-limit
 * headers need, and how a request that holds permits gives them back when it ends. A new HTTP server is a subclass
 * of this, a weave target and an advice; keys, client address, matching, deciding, waiting, rendering and the
 * release are the gate's.
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

    protected HttpServerApi(String server, int capabilities, Throwable problem) {
        super(server, capabilities);
        this.supported = problem == null;
        this.problem = problem;
    }

    /** The HTTP method's name ({@code GET}). */
    public abstract String method(Object request) throws Throwable;

    /** The path {@code http:} rules match ({@link RequestView#path}); never null for an HTTP request. */
    @Override
    public abstract String path(Object request) throws Throwable;

    /**
     * True if this is the request's first dispatch, the one decided: a servlet container dispatches one request
     * again (forwards, includes, async and error dispatches), and each request is counted once. True by default.
     */
    public boolean firstDispatch(Object request) throws Throwable {
        return true;
    }

    /** True once the status line and headers are out: nothing can be set any more. */
    public abstract boolean committed(Object response) throws Throwable;

    public abstract void status(Object response, int code) throws Throwable;

    public abstract void setHeader(Object response, String name, String value) throws Throwable;

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
