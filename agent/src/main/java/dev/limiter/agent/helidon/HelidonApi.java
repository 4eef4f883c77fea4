package dev.limiter.agent.helidon;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.HandleFinder;
import dev.limiter.agent.http.HeaderLines;
import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpServerApi;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Helidon 4's WebServer as the HTTP gate sees it, through its public interfaces ({@code RoutingRequest},
 * {@code ServerResponse}, {@code HttpPrologue}, {@code Headers}, {@code UriQuery}, {@code PeerInfo}; handles found
 * once per request class, {@link ErasedHandles}). The gate's request and response are both the thread's
 * {@link HelidonCall}, which holds Helidon's request and response and the text of their connection's peer.
 *
 * <p>The path is the prologue's {@code UriPath.path()}: decoded, dot segments and {@code //} resolved, without
 * {@code ;} parameters, computed once per request by Helidon, which routes on it. A header is found by a
 * {@code HeaderName}, made once per name and kept (the names come from the rules). The peer is the connection's
 * address: {@code remotePeer()} makes a new object each time, so its text is read once per connection (the
 * request's {@code socketId()} is one string per connection) and kept in the call.
 *
 * <p>Before routing there is no user (Helidon's security runs in the routing's filters and handlers) and only the
 * query string (the body has not been read).
 */
final class HelidonApi extends HttpServerApi {

    private static final BindingCache<HelidonApi> BY_REQUEST_CLASS =
            BindingCache.of(MethodHandles.lookup(), HelidonApi.class, 14);

    /** What {@code Headers.all} gives for a header that is not there (anonymous class: nothing to spin). */
    private static final Supplier<List<String>> NONE = new Supplier<>() {
        @Override
        public List<String> get() {
            return null;
        }
    };

    /** Header names kept: the rules' few; past this many (a rules file churning names) they are made each time. */
    private static final int MAX_NAMES = 256;

    private final MethodHandle method;
    private final MethodHandle path;
    private final MethodHandle hasHeader;
    private final MethodHandle firstHeader;
    private final MethodHandle allHeaders;
    private final MethodHandle headerName;
    private final MethodHandle hasParameter;
    private final MethodHandle parameter;
    private final MethodHandle socketId;
    private final MethodHandle peerAddress;
    private final MethodHandle sent;
    private final MethodHandle status;
    private final MethodHandle setHeader;
    private final MethodHandle send;
    private final ConcurrentHashMap<String, Object> names = new ConcurrentHashMap<>();

    /** The API as the loader of {@code request}'s class (a Helidon {@code RoutingRequest}) sees it. */
    static HelidonApi of(Object request) {
        return BY_REQUEST_CLASS.of(request);
    }

    private HelidonApi(MethodHandle[] h, Throwable problem) {
        super("Helidon WebServer", NO_PRINCIPAL | QUERY_PARAMETERS_ONLY, problem);
        method = h[0];
        path = h[1];
        hasHeader = h[2];
        firstHeader = h[3];
        allHeaders = h[4];
        headerName = h[5];
        hasParameter = h[6];
        parameter = h[7];
        socketId = h[8];
        peerAddress = h[9];
        sent = h[10];
        status = h[11];
        setHeader = h[12];
        send = h[13];
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        HandleFinder f = new HandleFinder(loader, "io.helidon.http");
        String request = "io.helidon.webserver.http.RoutingRequest";
        String response = "io.helidon.webserver.http.ServerResponse";
        String uriPath = "io.helidon.common.uri.UriPath";
        String parameters = "io.helidon.common.parameters.Parameters";
        String peer = "io.helidon.common.socket.PeerInfo";
        MethodHandle toPrologue = f.virtual(request, "prologue", "HttpPrologue");
        MethodHandle toHeaders = f.virtual(request, "headers", "ServerRequestHeaders")
                .asType(MethodType.methodType(f.type("Headers"), f.type(request)));
        MethodHandle toQuery = f.virtual(request, "query", "io.helidon.common.uri.UriQuery")
                .asType(MethodType.methodType(f.type(parameters), f.type(request)));

        h[0] = HandleFinder.then(toPrologue, f.virtual("HttpPrologue", "method", "Method"),
                f.virtual("Method", "text", String.class));
        h[1] = HandleFinder.then(toPrologue, f.virtual("HttpPrologue", "uriPath", uriPath),
                f.virtual(uriPath, "path", String.class));
        h[2] = HandleFinder.on(toHeaders, f.virtual("Headers", "contains", boolean.class, "HeaderName"));
        h[3] = HandleFinder.then(HandleFinder.on(toHeaders, f.virtual("Headers", "get", "Header", "HeaderName")),
                f.virtual("io.helidon.common.mapper.Value", "get", Object.class)
                        .asType(MethodType.methodType(Object.class, f.type("Header"))));
        h[4] = HandleFinder.on(toHeaders, f.virtual("Headers", "all", List.class, "HeaderName", Supplier.class));
        h[5] = f.function("HeaderNames", "create", "HeaderName", String.class);
        h[6] = HandleFinder.on(toQuery, f.virtual(parameters, "contains", boolean.class, String.class));
        h[7] = HandleFinder.on(toQuery, f.virtual(parameters, "get", String.class, String.class));
        h[8] = f.virtual(request, "socketId", String.class);
        h[9] = HandleFinder.then(f.virtual(request, "remotePeer", peer),
                f.virtual(peer, "address", SocketAddress.class));
        h[10] = f.virtual(response, "isSent", boolean.class);
        h[11] = f.virtual(response, "status", response, int.class);
        h[12] = MethodHandles.collectArguments(f.virtual(response, "header", response, "Header"), 1,
                f.function("HeaderValues", "create", "Header", "HeaderName", String.class));
        h[13] = f.virtual(response, "send", void.class, byte[].class);
        ErasedHandles.eraseAll(h);
    }

    // ---- the request (the call's Helidon request)

    @Override
    public String method(Object call) throws Throwable {
        return (String) method.invokeExact(((HelidonCall) call).request); // Helidon keeps one text per method
    }

    @Override
    public String path(Object call) throws Throwable {
        return (String) path.invokeExact(((HelidonCall) call).request);
    }

    @Override
    public String header(Object call, String name) throws Throwable {
        Object request = ((HelidonCall) call).request;
        Object key = name(name);
        return (boolean) hasHeader.invokeExact(request, key) ? (String) (Object) firstHeader.invokeExact(request, key)
                : null;
    }

    @Override
    public String headerLines(Object call, String name) throws Throwable {
        return HeaderLines.joined((List<?>) allHeaders.invokeExact(((HelidonCall) call).request, name(name),
                (Supplier<?>) NONE));
    }

    /** The query parameter {@code name} (decoded; the body is never read), or null. */
    @Override
    public String parameter(Object call, String name) throws Throwable {
        Object request = ((HelidonCall) call).request;
        return (boolean) hasParameter.invokeExact(request, name) ? (String) parameter.invokeExact(request, name)
                : null;
    }

    /** The text of the connection's peer, read once per connection ({@link HelidonCall#peer}). */
    @Override
    public Object peer(Object call) throws Throwable {
        return ((HelidonCall) call).peer(this);
    }

    @Override
    public String peerText(Object text) {
        return (String) text;
    }

    /** The connection's id: one string for all of its requests. */
    String socketId(Object request) throws Throwable {
        return (String) socketId.invokeExact(request);
    }

    /** The address text of {@code request}'s peer ({@code 10.0.0.1}, {@code 0:0:0:0:0:0:0:1}), or null. */
    String peerAddress(Object request) throws Throwable {
        SocketAddress address = (SocketAddress) peerAddress.invokeExact(request);
        if (address instanceof InetSocketAddress inet && inet.getAddress() != null) {
            return inet.getAddress().getHostAddress();
        }
        return null;
    }

    /** Helidon's {@code HeaderName} of {@code name}, made once. */
    private Object name(String name) throws Throwable {
        Object known = names.get(name);
        if (known == null) {
            known = (Object) headerName.invokeExact(name);
            if (names.size() < MAX_NAMES) {
                names.putIfAbsent(name, known);
            }
        }
        return known;
    }

    // ---- the response (the call's Helidon response)

    @Override
    public boolean committed(Object call) throws Throwable {
        return (boolean) sent.invokeExact(((HelidonCall) call).response);
    }

    @Override
    public void status(Object call, int code) throws Throwable {
        Object self = (Object) status.invokeExact(((HelidonCall) call).response, code);
    }

    @Override
    public void setHeader(Object call, String name, String value) throws Throwable {
        Object self = (Object) setHeader.invokeExact(((HelidonCall) call).response, name(name), value);
    }

    /** Sends the whole response (Helidon sets its {@code Content-Length}), on the request's own thread. */
    @Override
    public Object writeRejection(Object call, byte[] body, String contentType) throws Throwable {
        if (contentType != null) {
            setHeader(call, "Content-Type", contentType);
        }
        send.invokeExact(((HelidonCall) call).response, body);
        return WRITTEN;
    }

    /** The permits stay in the call, which the woven method gives back at its exit ({@link HelidonCall#run}). */
    @Override
    public void holdUntilEnd(Object call, HttpExchange exchange) {
    }
}
