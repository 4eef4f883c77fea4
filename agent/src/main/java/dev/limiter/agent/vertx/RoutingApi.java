package dev.limiter.agent.vertx;

import dev.limiter.agent.decision.RoutedPaths;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.HeaderLines;
import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpServerApi;
import dev.limiter.agent.http.PermitRelease;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.util.List;

/**
 * Vert.x Web (4.5 and 5; Quarkus or any {@code Router} application) as the HTTP gate sees it, through the public
 * interfaces {@code RoutingContext}, {@code HttpServerRequest}, {@code HttpServerResponse} and {@code Handler}
 * ({@link ErasedHandles}, found once per routing-context class). The gate's "request" and "response" are both the
 * routing context: each getter is its request's method composed with {@code context.request()} (each setter with
 * {@code context.response()}) into one handle, and the context is what the end of the request hangs on.
 *
 * <p>The path is {@code RoutingContext.normalizedPath()} (dot segments removed, unreserved escapes decoded:
 * computed once per request by Vert.x Web, which routes on it). The peer is the connection's address
 * ({@code connection().remoteAddress()}, one per connection; the request wrapper's own {@code remoteAddress()}
 * parses forwarding headers per request). The end of a request is a {@code Handler} among the context's end
 * handlers, which Vert.x Web runs once when the response ends, fails or the connection closes: a JDK proxy of the
 * application's own {@code io.vertx.core.Handler} ({@link EndOfRequest}), so the agent needs no class in the
 * application's loader. Not a {@code Promise}: Vert.x 4.5's is a {@code Handler<AsyncResult>}, Vert.x 5's is not
 * (it is a {@code Completable}), and 5 dropped the context's {@code Future}-returning {@code addEndHandler()}; the
 * proxy is the same on both, and costs a holding request fewer objects than a promise's completion stage.
 *
 * <p>Before routing there is no user (Quarkus security authenticates in a route handler) and only the query
 * string (the body may not have arrived).
 */
final class RoutingApi extends HttpServerApi {

    private static final ClassValue<RoutingApi> BY_CONTEXT_CLASS = new ClassValue<>() {
        @Override
        protected RoutingApi computeValue(Class<?> type) {
            MethodHandle[] h = new MethodHandle[14];
            try {
                find(type.getClassLoader(), h);
                return new RoutingApi(h, null);
            } catch (Throwable t) {
                return new RoutingApi(h, t);
            }
        }
    };

    private final MethodHandle normalizedPath;
    private final MethodHandle method;
    private final MethodHandle header;
    private final MethodHandle headerAll;
    private final MethodHandle param;
    private final MethodHandle peer;
    private final MethodHandle hostAddress;
    private final MethodHandle status;
    private final MethodHandle putHeader;
    private final MethodHandle endWith;
    private final MethodHandle end;
    private final MethodHandle headWritten;
    private final MethodHandle newEndHandler;
    private final MethodHandle addEndHandler;

    /** The API as the loader of {@code context}'s class sees it. */
    static RoutingApi of(Object context) {
        return BY_CONTEXT_CLASS.get(context.getClass());
    }

    private RoutingApi(MethodHandle[] h, Throwable problem) {
        super("Vert.x Web", NO_PRINCIPAL | QUERY_PARAMETERS_ONLY, problem);
        normalizedPath = h[0];
        method = h[1];
        header = h[2];
        headerAll = h[3];
        param = h[4];
        peer = h[5];
        hostAddress = h[6];
        status = h[7];
        putHeader = h[8];
        endWith = h[9];
        end = h[10];
        headWritten = h[11];
        newEndHandler = h[12];
        addEndHandler = h[13];
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> context = ErasedHandles.type("io.vertx.ext.web.RoutingContext", loader);
        Class<?> request = ErasedHandles.type("io.vertx.core.http.HttpServerRequest", loader);
        Class<?> response = ErasedHandles.type("io.vertx.core.http.HttpServerResponse", loader);
        Class<?> httpMethod = ErasedHandles.type("io.vertx.core.http.HttpMethod", loader);
        Class<?> multiMap = ErasedHandles.type("io.vertx.core.MultiMap", loader);
        Class<?> connection = ErasedHandles.type("io.vertx.core.http.HttpConnection", loader);
        Class<?> address = ErasedHandles.type("io.vertx.core.net.SocketAddress", loader);
        Class<?> future = ErasedHandles.type("io.vertx.core.Future", loader);
        Class<?> handler = ErasedHandles.type("io.vertx.core.Handler", loader);
        // the proxy class is public in a package the JDK exports (the Handler interface is public and exported)
        Class<?> endHandlerProxy = Proxy.newProxyInstance(loader, new Class<?>[] {handler}, new EndOfRequest(null))
                .getClass();
        MethodHandle toRequest = lookup.findVirtual(context, "request", MethodType.methodType(request));
        MethodHandle toResponse = lookup.findVirtual(context, "response", MethodType.methodType(response));

        h[0] = lookup.findVirtual(context, "normalizedPath", MethodType.methodType(String.class));
        h[1] = onRequest(toRequest, MethodHandles.filterReturnValue(
                lookup.findVirtual(request, "method", MethodType.methodType(httpMethod)),
                lookup.findVirtual(httpMethod, "name", MethodType.methodType(String.class))));
        h[2] = onRequest(toRequest,
                lookup.findVirtual(request, "getHeader", MethodType.methodType(String.class, String.class)));
        h[3] = onRequest(toRequest, MethodHandles.filterArguments(
                lookup.findVirtual(multiMap, "getAll", MethodType.methodType(List.class, String.class)), 0,
                lookup.findVirtual(request, "headers", MethodType.methodType(multiMap))));
        h[4] = onRequest(toRequest,
                lookup.findVirtual(request, "getParam", MethodType.methodType(String.class, String.class)));
        h[5] = onRequest(toRequest, MethodHandles.filterReturnValue(
                lookup.findVirtual(request, "connection", MethodType.methodType(connection)),
                lookup.findVirtual(connection, "remoteAddress", MethodType.methodType(address))));
        h[6] = lookup.findVirtual(address, "hostAddress", MethodType.methodType(String.class));
        h[7] = onRequest(toResponse,
                lookup.findVirtual(response, "setStatusCode", MethodType.methodType(response, int.class)));
        h[8] = onRequest(toResponse, lookup.findVirtual(response, "putHeader",
                MethodType.methodType(response, String.class, String.class)));
        h[9] = onRequest(toResponse, lookup.findVirtual(response, "end", MethodType.methodType(future, String.class)));
        h[10] = onRequest(toResponse, lookup.findVirtual(response, "end", MethodType.methodType(future)));
        h[11] = onRequest(toResponse,
                lookup.findVirtual(response, "headWritten", MethodType.methodType(boolean.class)));
        h[12] = lookup.findConstructor(endHandlerProxy, MethodType.methodType(void.class, InvocationHandler.class));
        h[13] = lookup.findVirtual(context, "addEndHandler", MethodType.methodType(int.class, handler));
        ErasedHandles.eraseAll(h);
    }

    /** {@code target} called on what {@code part} gives of the context ({@code context.request()}). */
    private static MethodHandle onRequest(MethodHandle part, MethodHandle target) {
        return MethodHandles.filterArguments(target, 0, part);
    }

    // ---- the request (the routing context)

    @Override
    public String method(Object context) throws Throwable {
        return (String) method.invokeExact(context); // Vert.x keeps one name per method: no string is made
    }

    @Override
    public String path(Object context) throws Throwable {
        return RoutedPaths.ruleView((String) normalizedPath.invokeExact(context));
    }

    @Override
    public String header(Object context, String name) throws Throwable {
        return (String) header.invokeExact(context, name);
    }

    @Override
    public String headerLines(Object context, String name) throws Throwable {
        return HeaderLines.joined((List<?>) headerAll.invokeExact(context, name));
    }

    /** The query parameter {@code name} (decoded; the body is never read), or null. */
    @Override
    public String parameter(Object context, String name) throws Throwable {
        return (String) param.invokeExact(context, name);
    }

    /** The connection's {@code SocketAddress} (one per connection), or null. */
    @Override
    public Object peer(Object context) throws Throwable {
        return (Object) peer.invokeExact(context);
    }

    @Override
    public String peerText(Object address) throws Throwable {
        return (String) hostAddress.invokeExact(address);
    }

    // ---- the response (the routing context's)

    @Override
    public boolean committed(Object context) throws Throwable {
        return (boolean) headWritten.invokeExact(context);
    }

    @Override
    public void status(Object context, int code) throws Throwable {
        Object self = (Object) status.invokeExact(context, code);
    }

    @Override
    public void setHeader(Object context, String name, String value) throws Throwable {
        Object self = (Object) putHeader.invokeExact(context, name, value);
    }

    /** Ends the response (Vert.x sets its {@code Content-Length}; {@code end} queues the write on the event loop). */
    @Override
    public Object writeRejection(Object context, byte[] body, String contentType) throws Throwable {
        if (body.length == 0) {
            setHeader(context, "Content-Length", "0");
            Object written = (Object) end.invokeExact(context);
            return WRITTEN;
        }
        if (contentType != null) {
            setHeader(context, "Content-Type", contentType);
        }
        Object written = (Object) endWith.invokeExact(context, new String(body, java.nio.charset.StandardCharsets.UTF_8));
        return WRITTEN;
    }

    /** The permits go back when the context's end handlers run: a proxy {@code Handler} among them releases them. */
    @Override
    public void holdUntilEnd(Object context, HttpExchange exchange) throws Throwable {
        PermitRelease release = new PermitRelease(exchange.permits, this);
        try {
            Object handler = (Object) newEndHandler.invokeExact((InvocationHandler) new EndOfRequest(release));
            int index = (int) addEndHandler.invokeExact(context, handler);
        } catch (Throwable t) {
            release.release();
            throw t;
        }
    }
}
