package dev.limiter.agent.vertx;

import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.HandleFinder;
import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpServerApi;
import dev.limiter.agent.http.PermitRelease;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
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

    private static final BindingCache<RoutingApi> BY_CONTEXT_CLASS =
            BindingCache.of(MethodHandles.lookup(), RoutingApi.class, OWN_HANDLES + 4);
    private static final int END_WITH = OWN_HANDLES;
    private static final int END = OWN_HANDLES + 1;
    private static final int NEW_END_HANDLER = OWN_HANDLES + 2;
    private static final int ADD_END_HANDLER = OWN_HANDLES + 3;

    private final MethodHandle endWith;
    private final MethodHandle end;
    private final MethodHandle newEndHandler;
    private final MethodHandle addEndHandler;

    /** The API as the loader of {@code context}'s class sees it. */
    static RoutingApi of(Object context) {
        return BY_CONTEXT_CLASS.of(context);
    }

    private RoutingApi(MethodHandle[] h, Throwable problem) {
        super("Vert.x Web", NO_PRINCIPAL | QUERY_PARAMETERS_ONLY, h, problem);
        endWith = h[END_WITH];
        end = h[END];
        newEndHandler = h[NEW_END_HANDLER];
        addEndHandler = h[ADD_END_HANDLER];
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        HandleFinder f = new HandleFinder(loader, "io.vertx.core.http");
        String context = "io.vertx.ext.web.RoutingContext";
        String request = "HttpServerRequest";
        String response = "HttpServerResponse";
        String future = "io.vertx.core.Future";
        String handler = "io.vertx.core.Handler";
        // the proxy class is public in a package the JDK exports (the Handler interface is public and exported)
        Class<?> endHandlerProxy = Proxy.newProxyInstance(loader, new Class<?>[] {f.type(handler)},
                new EndOfRequest(null)).getClass();
        MethodHandle toRequest = f.virtual(context, "request", request);
        MethodHandle toResponse = f.virtual(context, "response", response);

        // the path Vert.x Web routes on, as http: rules see it
        h[PATH] = ErasedHandles.ruleView(f.virtual(context, "normalizedPath", String.class));
        h[METHOD] = HandleFinder.on(toRequest, HandleFinder.then(f.virtual(request, "method", "HttpMethod"),
                f.virtual("HttpMethod", "name", String.class)));
        h[HEADER] = HandleFinder.on(toRequest, f.virtual(request, "getHeader", String.class, String.class));
        String multiMap = "io.vertx.core.MultiMap";
        h[HEADER_LINES] = HandleFinder.on(toRequest, HandleFinder.on(f.virtual(request, "headers", multiMap),
                f.virtual(multiMap, "getAll", List.class, String.class)));
        h[PARAMETER] = HandleFinder.on(toRequest, f.virtual(request, "getParam", String.class, String.class));
        h[PEER] = HandleFinder.on(toRequest, HandleFinder.then(f.virtual(request, "connection", "HttpConnection"),
                f.virtual("HttpConnection", "remoteAddress", "io.vertx.core.net.SocketAddress")));
        h[PEER_TEXT] = f.virtual("io.vertx.core.net.SocketAddress", "hostAddress", String.class);
        h[STATUS] = HandleFinder.on(toResponse, f.virtual(response, "setStatusCode", response, int.class));
        h[SET_HEADER] = HandleFinder.on(toResponse,
                f.virtual(response, "putHeader", response, String.class, String.class));
        h[END_WITH] = HandleFinder.on(toResponse, f.virtual(response, "end", future, String.class));
        h[END] = HandleFinder.on(toResponse, f.virtual(response, "end", future));
        h[COMMITTED] = HandleFinder.on(toResponse, f.virtual(response, "headWritten", boolean.class));
        h[NEW_END_HANDLER] = f.constructor(endHandlerProxy, InvocationHandler.class);
        h[ADD_END_HANDLER] = f.virtual(context, "addEndHandler", int.class, handler);
        ErasedHandles.eraseAll(h);
    }

    // ---- the rest of the response (the routing context's); the getters and setters are the handle table's

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
