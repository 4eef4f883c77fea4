package dev.limiter.agent.http;

import java.lang.invoke.MethodHandle;
import java.util.List;

/**
 * What one server alone knows about a request, for the keys, conditions and client address of its rules: the
 * getters of the seam every entry point shares (in the style of OpenTelemetry's {@code HttpServerAttributesGetter}).
 * A binding implements them over its framework's objects, typically through method handles found once per request
 * class in the application's loader; everything else ({@link HttpKeys}, {@link ClientAddress}, the decision and the
 * rendering of a rejection) is written once for every server.
 *
 * <p>A request reaches the getters as {@code Object}: the agent's loader cannot see the framework's types. What a
 * server cannot supply before its handler runs is said once, in {@link #capabilities}, rather than by each getter:
 * the key reader turns a rule keyed on a missing capability into a failure of that rule (its {@code on-error}
 * decides) instead of a silently shared key.
 */
public abstract class RequestView {

    /** No authenticated user before the handler runs ({@code principal} keys fail, roles never hold). */
    public static final int NO_PRINCIPAL = 1;
    /** {@code param:} reads the query string only (the body is never read: it may not have arrived). */
    public static final int QUERY_PARAMETERS_ONLY = 2;
    /** No path, no parameters: a call that is not an HTTP request (gRPC); its metadata are its headers. */
    public static final int NO_PATH = 4;

    /** What the server is called in the log ({@code "Spring WebFlux"}). */
    public final String server;
    /** The {@code NO_*} / {@code *_ONLY} flags of this server. */
    public final int capabilities;

    /**
     * Where a binding made of method handles puts each getter in the table it passes to the constructor, erased
     * ({@link ErasedHandles}): {@code (request, String) String} for {@link #header}, {@code (request, String) List}
     * for {@link #headerLines}, {@code (request, String) String} for {@link #parameter}, {@code (request) String}
     * for {@link #path}, {@code (request) Object} for {@link #peer}, {@code (peer) String} for {@link #peerText}.
     * A binding leaves a slot null where it overrides the getter instead (or, for parameter and path, has none).
     */
    protected static final int HEADER = 0;
    protected static final int HEADER_LINES = 1;
    protected static final int PARAMETER = 2;
    protected static final int PATH = 3;
    protected static final int PEER = 4;
    protected static final int PEER_TEXT = 5;
    /** The first slot a subclass may use for its own handles. */
    protected static final int VIEW_HANDLES = 6;

    private final MethodHandle header;
    private final MethodHandle headerLines;
    private final MethodHandle parameter;
    private final MethodHandle path;
    private final MethodHandle peer;
    private final MethodHandle peerText;

    /** A view that overrides every getter it has. */
    protected RequestView(String server, int capabilities) {
        this(server, capabilities, null);
    }

    /** A view whose getters are the handles {@code h} holds at the slots above (null: none, or overridden). */
    protected RequestView(String server, int capabilities, MethodHandle[] h) {
        this.server = server;
        this.capabilities = capabilities;
        this.header = ErasedHandles.at(h, HEADER, String.class, Object.class, String.class);
        this.headerLines = ErasedHandles.at(h, HEADER_LINES, List.class, Object.class, String.class);
        this.parameter = ErasedHandles.at(h, PARAMETER, String.class, Object.class, String.class);
        this.path = ErasedHandles.at(h, PATH, String.class, Object.class);
        this.peer = ErasedHandles.at(h, PEER, Object.class, Object.class);
        this.peerText = ErasedHandles.at(h, PEER_TEXT, String.class, Object.class);
    }

    /** True if this server lacks {@code capability} (one of the flags). */
    public final boolean lacks(int capability) {
        return (capabilities & capability) != 0;
    }

    /**
     * The decoded path within the application as the server routes it, which {@code http:} rules match: without
     * the context path, with dot segments removed, without {@code ;} segment parameters; null if the call has no
     * path ({@link #NO_PATH}).
     */
    public String path(Object request) throws Throwable {
        return path == null ? null : (String) path.invokeExact(request);
    }

    /** The first value of header {@code name} (for gRPC: the metadata entry's value), or null. */
    public String header(Object request, String name) throws Throwable {
        return (String) header.invokeExact(request, name);
    }

    /**
     * Every line of header {@code name} joined with {@code ,} (what the trusted-proxy rules read: a proxy may add
     * its own line after the client's), or null.
     */
    public String headerLines(Object request, String name) throws Throwable {
        return HeaderLines.joined((List<?>) headerLines.invokeExact(request, name));
    }

    /** The request parameter {@code name}, or null; may throw when the server refuses to parse the parameters. */
    public String parameter(Object request, String name) throws Throwable {
        return parameter == null ? null : (String) parameter.invokeExact(request, name);
    }

    /**
     * The connection's peer: any object whose text {@link #peerText} gives (a kept-alive connection hands the same
     * or an equal one again, so its text is formatted once per thread, {@link PeerCache}); null if unknown.
     */
    public Object peer(Object request) throws Throwable {
        return (Object) peer.invokeExact(request);
    }

    /** The address text of {@code peer} ({@code 10.0.0.1}, {@code ::1}). */
    public String peerText(Object peer) throws Throwable {
        return (String) peerText.invokeExact(peer);
    }

    /** The authenticated user's name, or null (never asked when {@link #NO_PRINCIPAL}). */
    public String principal(Object request) throws Throwable {
        return null;
    }

    /** True if the authenticated user has {@code role} (never asked when {@link #NO_PRINCIPAL}). */
    public boolean isUserInRole(Object request, String role) throws Throwable {
        return false;
    }
}
