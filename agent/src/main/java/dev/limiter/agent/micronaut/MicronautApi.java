package dev.limiter.agent.micronaut;

import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.HandleFinder;
import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpServerApi;
import dev.limiter.agent.http.PermitRelease;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Proxy;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Function;

/**
 * Micronaut 4.3+ on Netty as the HTTP gate sees it, through its public interfaces {@code HttpRequest},
 * {@code HttpHeaders}, {@code HttpParameters}, {@code HttpResponse} and {@code ExecutionFlow} ({@link ErasedHandles},
 * found once per request class). The gate's "request" is Micronaut's {@code NettyHttpRequest}; its "response" is
 * the thread's {@link MicronautExchange}, since Micronaut has none before the route: a rejection becomes
 * {@code ExecutionFlow.just(HttpResponse.status(...))}, written by Micronaut like any response (keep-alive, HEAD,
 * pipelining are its own), and an admitted request's headers are mapped onto the response its flow yields.
 *
 * <p>The path is {@code getPath()}, the raw path Micronaut's router matches, seen as {@link RoutedPaths} does
 * (escapes decoded, {@code ;} parameters cut): the router decodes the values of path variables, so
 * {@code /items/%73ecret} reaches the handler of {@code /items/secret}. The peer is the channel's remote address
 * ({@code getRemoteAddress()}: Micronaut reads no forwarding header there). The end of a request is
 * {@link RequestEnd}: a {@code ReferenceCounted} attribute Micronaut releases with the request.
 *
 * <p>Before its filters there is no user (Micronaut Security authenticates in a filter) and only the query string
 * (the body may not have arrived). A request of another server that shares Micronaut's lifecycle (micronaut-servlet:
 * its servlet entry decides those) is {@link #OTHER_SERVER} and left alone.
 */
final class MicronautApi extends HttpServerApi {

    private static final String NETTY_REQUEST = "io.micronaut.http.server.netty.NettyHttpRequest";
    /** The request attribute the permits hang on (released with the request). */
    private static final String PERMITS = "dev.limiter.permits";

    private static final int SET_ATTRIBUTE = OWN_HANDLES;
    private static final int NEW_RESPONSE = OWN_HANDLES + 1;
    private static final int ADD_HEADER = OWN_HANDLES + 2;
    private static final int BODY = OWN_HANDLES + 3;
    private static final int JUST = OWN_HANDLES + 4;
    private static final int MAP = OWN_HANDLES + 5;
    private static final int NEW_REQUEST_END = OWN_HANDLES + 6;
    private static final int HANDLES = OWN_HANDLES + 7;

    /** What a request of another server than the Netty one gets: nothing is decided for it. */
    static final MicronautApi OTHER_SERVER = new MicronautApi(new MethodHandle[HANDLES], null);

    private static final BindingCache<MicronautApi> NETTY =
            BindingCache.of(MethodHandles.lookup(), MicronautApi.class, HANDLES);
    private static final ClassValue<MicronautApi> BY_REQUEST_CLASS = new ClassValue<>() {
        @Override
        protected MicronautApi computeValue(Class<?> type) {
            return type.getName().equals(NETTY_REQUEST) ? NETTY.get(type) : OTHER_SERVER;
        }
    };

    private final MethodHandle[] own;

    /** The API as the loader of {@code request}'s class sees it; {@link #OTHER_SERVER} if not the Netty server's. */
    static MicronautApi of(Object request) {
        return BY_REQUEST_CLASS.get(request.getClass());
    }

    private MicronautApi(MethodHandle[] h, Throwable problem) {
        super("Micronaut", NO_PRINCIPAL | QUERY_PARAMETERS_ONLY, h, problem);
        own = h;
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        HandleFinder f = new HandleFinder(loader, "io.micronaut.http");
        MethodHandle headers = f.virtual("HttpRequest", "getHeaders", "HttpHeaders");
        MethodType byName = MethodType.methodType(String.class, Object.class, String.class);
        h[METHOD] = f.virtual("HttpRequest", "getMethodName", String.class);
        h[PATH] = ErasedHandles.ruleView(f.virtual("HttpRequest", "getPath", String.class));
        h[HEADER] = HandleFinder.on(headers, f.virtual("HttpHeaders", "get", Object.class, CharSequence.class))
                .asType(byName);
        h[HEADER_LINES] = HandleFinder.on(headers, f.virtual("HttpHeaders", "getAll", List.class, CharSequence.class))
                .asType(MethodType.methodType(List.class, Object.class, String.class));
        h[PARAMETER] = HandleFinder.on(f.virtual("HttpRequest", "getParameters", "HttpParameters"),
                f.virtual("HttpParameters", "get", Object.class, CharSequence.class)).asType(byName);
        h[PEER] = ErasedHandles.inetPeer(f.virtual("HttpRequest", "getRemoteAddress", InetSocketAddress.class));
        h[PEER_TEXT] = ErasedHandles.inetPeerText();
        h[SET_ATTRIBUTE] = f.virtual("HttpRequest", "setAttribute", "HttpRequest", CharSequence.class, Object.class)
                .asType(MethodType.methodType(Object.class, Object.class, String.class, Object.class));
        h[NEW_RESPONSE] = f.function("HttpResponse", "status", "MutableHttpResponse", int.class, String.class);
        // withHeaders: the response a flow yields, made mutable (a no-op for Micronaut's own responses)
        h[ADD_HEADER] = HandleFinder.on(f.virtual("HttpResponse", "toMutableResponse", "MutableHttpResponse"),
                f.virtual("MutableHttpResponse", "header", "MutableHttpResponse", CharSequence.class,
                        CharSequence.class)).asType(MethodType.methodType(Object.class, Object.class, String.class,
                String.class));
        h[BODY] = f.virtual("MutableHttpResponse", "body", "MutableHttpResponse", Object.class);
        String flow = "io.micronaut.core.execution.ExecutionFlow";
        h[JUST] = f.function(flow, "just", flow, Object.class);
        h[MAP] = f.virtual(flow, "map", flow, Function.class);
        Class<?> proxy = Proxy.newProxyInstance(loader, new Class<?>[] {f.type("io.netty.util.ReferenceCounted")},
                new RequestEnd(null)).getClass();
        h[NEW_REQUEST_END] = f.constructor(proxy, InvocationHandler.class);
        ErasedHandles.eraseAll(h);
    }

    // ---- the response (the thread's MicronautExchange until it becomes Micronaut's)

    /** Nothing is written before the route runs. */
    @Override
    public boolean committed(Object response) {
        return false;
    }

    @Override
    public void status(Object response, int code) {
        ((MicronautExchange) response).status = code;
    }

    @Override
    public void setHeader(Object response, String name, String value) {
        ((MicronautExchange) response).header(name, value);
    }

    /**
     * {@code ExecutionFlow.just(HttpResponse.status(code, null).header(...).body(body))}: the flow the woven method
     * returns; Micronaut writes it (its {@code Content-Length} too) without running a filter or the route.
     */
    @Override
    public Object writeRejection(Object response, byte[] body, String contentType) throws Throwable {
        MicronautExchange exchange = (MicronautExchange) response;
        if (contentType != null) {
            exchange.header("Content-Type", contentType);
        }
        Object rejection = (Object) own[NEW_RESPONSE].invokeExact(exchange.status, (String) null);
        rejection = withHeaders(rejection, exchange.takeHeaders());
        if (body.length > 0) {
            rejection = (Object) own[BODY].invokeExact(rejection, (Object) body);
        }
        return (Object) own[JUST].invokeExact(rejection);
    }

    /** The permits go back when Micronaut releases the request: {@link RequestEnd} is one of its attributes. */
    @Override
    public void holdUntilEnd(Object request, HttpExchange exchange) throws Throwable {
        PermitRelease release = new PermitRelease(exchange.permits, this);
        try {
            Object end = (Object) own[NEW_REQUEST_END].invokeExact((InvocationHandler) new RequestEnd(release));
            Object self = (Object) own[SET_ATTRIBUTE].invokeExact(request, PERMITS, end);
        } catch (Throwable t) {
            release.release();
            throw t;
        }
    }

    /** {@code response} made mutable with {@code headers} (names and values, alternating) added. */
    Object withHeaders(Object response, String[] headers) throws Throwable {
        Object mutable = response;
        for (int i = 0; i < headers.length; i += 2) {
            mutable = (Object) own[ADD_HEADER].invokeExact(mutable, headers[i], headers[i + 1]);
        }
        return mutable;
    }

    /** {@code flow.map(then)}. */
    Object map(Object flow, Function<Object, Object> then) throws Throwable {
        return (Object) own[MAP].invokeExact(flow, (Function) then);
    }
}
