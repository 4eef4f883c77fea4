package dev.limiter.agent.webflux;

import dev.limiter.agent.decision.RoutedPaths;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.BindingCache;
import dev.limiter.agent.http.HandleFinder;
import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpServerApi;
import dev.limiter.agent.http.PermitRelease;
import dev.limiter.bootstrap.ReactiveBridge;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.function.Consumer;

/**
 * Spring WebFlux 6-7 (Boot 3-4, any server) as the HTTP gate sees it: the getters and setters of its reactive
 * {@code ServerHttpRequest} / {@code ServerHttpResponse} ({@link ErasedHandles}, found once per request class), and
 * the end of an exchange: the {@code Mono<Void>} the handler returned, whose {@code doFinally} gives the permits
 * back once the response is complete, has failed, or the client went away mid-stream.
 *
 * <p>What WebFlux has before its handler runs: no user (Spring Security supplies the principal later, reactively:
 * {@code principal} keys fail, roles never hold), and the query string only ({@code param:} never reads the body).
 * An application whose Spring lacks one of these methods (Spring 5: no {@code HttpStatusCode}) is not supported.
 */
final class WebfluxApi extends HttpServerApi {

    private static final String REQUEST = "org.springframework.http.server.reactive.ServerHttpRequest";
    private static final String RESPONSE = "org.springframework.http.server.reactive.ServerHttpResponse";

    private static final BindingCache<WebfluxApi> BY_REQUEST_CLASS =
            BindingCache.of(MethodHandles.lookup(), WebfluxApi.class, OWN_HANDLES + 8);
    private static final int FULL_PATH = OWN_HANDLES;
    private static final int RAW_PATH = OWN_HANDLES + 1;
    private static final int CONTEXT_PATH = OWN_HANDLES + 2;
    private static final int BUFFER_FACTORY = OWN_HANDLES + 3;
    private static final int WRAP = OWN_HANDLES + 4;
    private static final int JUST = OWN_HANDLES + 5;
    private static final int WRITE_WITH = OWN_HANDLES + 6;
    private static final int DO_FINALLY = OWN_HANDLES + 7;

    private final MethodHandle[] own;

    /** The API as the loader of {@code request}'s class sees it. */
    static WebfluxApi of(Object request) {
        return BY_REQUEST_CLASS.of(request);
    }

    private WebfluxApi(MethodHandle[] h, Throwable problem) {
        super("Spring WebFlux", NO_PRINCIPAL | QUERY_PARAMETERS_ONLY, h, problem);
        own = h;
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        HandleFinder f = new HandleFinder(loader, "org.springframework.http");
        String mono = "reactor.core.publisher.Mono";
        String buffers = "org.springframework.core.io.buffer.DataBufferFactory";
        MethodHandle requestHeaders = f.virtual(REQUEST, "getHeaders", "HttpHeaders");
        MethodHandle uri = f.virtual(REQUEST, "getURI", URI.class);
        h[METHOD] = HandleFinder.then(f.virtual(REQUEST, "getMethod", "HttpMethod"),
                f.virtual("HttpMethod", "name", String.class));
        h[HEADER] = HandleFinder.on(requestHeaders, f.virtual("HttpHeaders", "getFirst", String.class, String.class));
        h[HEADER_LINES] = HandleFinder.on(requestHeaders, headerList(f));
        h[PARAMETER] = HandleFinder.on(f.virtual(REQUEST, "getQueryParams", "org.springframework.util.MultiValueMap"),
                f.virtual("org.springframework.util.MultiValueMap", "getFirst", Object.class, Object.class))
                .asType(MethodType.methodType(Object.class, f.type(REQUEST), String.class));
        h[PEER] = ErasedHandles.inetPeer(f.virtual(REQUEST, "getRemoteAddress", InetSocketAddress.class));
        h[PEER_TEXT] = ErasedHandles.inetPeerText();
        h[COMMITTED] = f.virtual(RESPONSE, "isCommitted", boolean.class);
        // false only once committed, which the gate checks before
        h[STATUS] = MethodHandles.filterArguments(
                f.virtual(RESPONSE, "setStatusCode", boolean.class, "HttpStatusCode"), 1,
                f.function("HttpStatusCode", "valueOf", "HttpStatusCode", int.class));
        h[SET_HEADER] = HandleFinder.on(f.virtual(RESPONSE, "getHeaders", "HttpHeaders"),
                f.virtual("HttpHeaders", "set", void.class, String.class, String.class));
        h[FULL_PATH] = HandleFinder.then(uri, f.virtual(URI.class, "getPath", String.class));
        h[RAW_PATH] = HandleFinder.then(uri, f.virtual(URI.class, "getRawPath", String.class));
        String path = "org.springframework.http.server.RequestPath";
        String container = "org.springframework.http.server.PathContainer";
        h[CONTEXT_PATH] = HandleFinder.then(f.virtual(REQUEST, "getPath", path),
                f.virtual(path, "contextPath", container), f.virtual(container, "value", String.class));
        h[BUFFER_FACTORY] = f.virtual(RESPONSE, "bufferFactory", buffers);
        h[WRAP] = f.virtual(buffers, "wrap", "org.springframework.core.io.buffer.DataBuffer", byte[].class);
        h[JUST] = f.function(mono, "just", mono, Object.class);
        h[WRITE_WITH] = f.virtual(RESPONSE, "writeWith", mono, "org.reactivestreams.Publisher");
        h[DO_FINALLY] = f.virtual(mono, "doFinally", mono, Consumer.class);
        ErasedHandles.eraseAll(h);
    }

    /** {@code HttpHeaders.get(String)} (Spring 7) or the {@code Map.get(Object)} of Spring 6's headers. */
    private static MethodHandle headerList(HandleFinder f) throws ReflectiveOperationException {
        try {
            return f.virtual("HttpHeaders", "get", List.class, String.class);
        } catch (NoSuchMethodException spring6) {
            return f.virtual("HttpHeaders", "get", List.class, Object.class)
                    .asType(MethodType.methodType(List.class, f.type("HttpHeaders"), String.class));
        }
    }

    // ---- the request: the handle table's getters, and the path

    /**
     * The decoded path within the application: without the context path ({@code spring.webflux.base-path}) and
     * without {@code ;} segment parameters, which Spring's routing ignores ({@link RoutedPaths}). The entry keeps
     * the cut per thread ({@link WebfluxExchange}); this computes it.
     */
    @Override
    public String path(Object request) throws Throwable {
        String full = fullPath(request);
        String context = contextPath(request);
        if (full == null || context == null || context.isEmpty() || !full.startsWith(context)) {
            return full;
        }
        return full.length() == context.length() ? "/" : full.substring(context.length());
    }

    /** The decoded request path ({@code URI.getPath()}), context path included, {@code ;} parameters cut. */
    String fullPath(Object request) throws Throwable {
        String full = (String) own[FULL_PATH].invokeExact(request);
        if (full != null && full.indexOf(';') >= 0) {
            full = RoutedPaths.ruleView((String) own[RAW_PATH].invokeExact(request));
        }
        return full;
    }

    /** The context path ({@code spring.webflux.base-path}) as sent, empty without one. */
    String contextPath(Object request) throws Throwable {
        return (String) own[CONTEXT_PATH].invokeExact(request);
    }

    // ---- the response: the handle table's setters, and the rejection's write

    /** {@code response.writeWith(Mono.just(bufferFactory().wrap(body)))}: the {@code Mono<Void>} of the write. */
    @Override
    public Object writeRejection(Object response, byte[] body, String contentType) throws Throwable {
        if (contentType != null) {
            setHeader(response, "Content-Type", contentType);
        }
        setHeader(response, "Content-Length", Integer.toString(body.length));
        Object factory = own[BUFFER_FACTORY].invokeExact(response);
        Object buffer = own[WRAP].invokeExact(factory, body);
        Object one = own[JUST].invokeExact(buffer);
        return own[WRITE_WITH].invokeExact(response, one);
    }

    /** The permits go with the woven method's return ({@link ReactiveBridge#hold}), then with its publisher. */
    @Override
    public void holdUntilEnd(Object request, HttpExchange exchange) {
        ReactiveBridge.hold(new PermitRelease(exchange.permits, this));
    }

    /** {@code mono.doFinally(then)}. */
    Object doFinally(Object mono, Consumer<?> then) throws Throwable {
        return own[DO_FINALLY].invokeExact(mono, then);
    }
}
