package dev.limiter.agent.helidon;

import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.ErasedHandles;
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
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> request = ErasedHandles.type("io.helidon.webserver.http.RoutingRequest", loader);
        Class<?> response = ErasedHandles.type("io.helidon.webserver.http.ServerResponse", loader);
        Class<?> prologue = ErasedHandles.type("io.helidon.http.HttpPrologue", loader);
        Class<?> httpMethod = ErasedHandles.type("io.helidon.http.Method", loader);
        Class<?> uriPath = ErasedHandles.type("io.helidon.common.uri.UriPath", loader);
        Class<?> requestHeaders = ErasedHandles.type("io.helidon.http.ServerRequestHeaders", loader);
        Class<?> headers = ErasedHandles.type("io.helidon.http.Headers", loader);
        Class<?> name = ErasedHandles.type("io.helidon.http.HeaderName", loader);
        Class<?> names = ErasedHandles.type("io.helidon.http.HeaderNames", loader);
        Class<?> header = ErasedHandles.type("io.helidon.http.Header", loader);
        Class<?> values = ErasedHandles.type("io.helidon.http.HeaderValues", loader);
        Class<?> value = ErasedHandles.type("io.helidon.common.mapper.Value", loader);
        Class<?> query = ErasedHandles.type("io.helidon.common.uri.UriQuery", loader);
        Class<?> parameters = ErasedHandles.type("io.helidon.common.parameters.Parameters", loader);
        Class<?> peer = ErasedHandles.type("io.helidon.common.socket.PeerInfo", loader);
        MethodHandle toPrologue = lookup.findVirtual(request, "prologue", MethodType.methodType(prologue));
        MethodHandle toHeaders = lookup.findVirtual(request, "headers", MethodType.methodType(requestHeaders))
                .asType(MethodType.methodType(headers, request));
        MethodHandle toQuery = lookup.findVirtual(request, "query", MethodType.methodType(query))
                .asType(MethodType.methodType(parameters, request));

        h[0] = MethodHandles.filterReturnValue(
                MethodHandles.filterReturnValue(toPrologue,
                        lookup.findVirtual(prologue, "method", MethodType.methodType(httpMethod))),
                lookup.findVirtual(httpMethod, "text", MethodType.methodType(String.class)));
        h[1] = MethodHandles.filterReturnValue(
                MethodHandles.filterReturnValue(toPrologue,
                        lookup.findVirtual(prologue, "uriPath", MethodType.methodType(uriPath))),
                lookup.findVirtual(uriPath, "path", MethodType.methodType(String.class)));
        h[2] = MethodHandles.filterArguments(
                lookup.findVirtual(headers, "contains", MethodType.methodType(boolean.class, name)), 0, toHeaders);
        h[3] = MethodHandles.filterReturnValue(
                MethodHandles.filterArguments(
                        lookup.findVirtual(headers, "get", MethodType.methodType(header, name)), 0, toHeaders),
                lookup.findVirtual(value, "get", MethodType.methodType(Object.class))
                        .asType(MethodType.methodType(Object.class, header)));
        h[4] = MethodHandles.filterArguments(lookup.findVirtual(headers, "all",
                MethodType.methodType(List.class, name, Supplier.class)), 0, toHeaders);
        h[5] = lookup.findStatic(names, "create", MethodType.methodType(name, String.class));
        h[6] = MethodHandles.filterArguments(
                lookup.findVirtual(parameters, "contains", MethodType.methodType(boolean.class, String.class)), 0,
                toQuery);
        h[7] = MethodHandles.filterArguments(
                lookup.findVirtual(parameters, "get", MethodType.methodType(String.class, String.class)), 0, toQuery);
        h[8] = lookup.findVirtual(request, "socketId", MethodType.methodType(String.class));
        h[9] = MethodHandles.filterReturnValue(
                lookup.findVirtual(request, "remotePeer", MethodType.methodType(peer)),
                lookup.findVirtual(peer, "address", MethodType.methodType(SocketAddress.class)));
        h[10] = lookup.findVirtual(response, "isSent", MethodType.methodType(boolean.class));
        h[11] = lookup.findVirtual(response, "status", MethodType.methodType(response, int.class));
        h[12] = MethodHandles.collectArguments(
                lookup.findVirtual(response, "header", MethodType.methodType(response, header)), 1,
                lookup.findStatic(values, "create", MethodType.methodType(header, name, String.class)));
        h[13] = lookup.findVirtual(response, "send", MethodType.methodType(void.class, byte[].class));
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
