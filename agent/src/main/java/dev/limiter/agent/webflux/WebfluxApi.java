package dev.limiter.agent.webflux;

import dev.limiter.agent.decision.RoutedPaths;
import dev.limiter.agent.http.ErasedHandles;
import dev.limiter.agent.http.HeaderLines;
import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpServerApi;
import dev.limiter.agent.http.PermitRelease;
import dev.limiter.bootstrap.ReactiveBridge;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetAddress;
import java.net.InetSocketAddress;
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

    private static final ClassValue<WebfluxApi> BY_REQUEST_CLASS = new ClassValue<>() {
        @Override
        protected WebfluxApi computeValue(Class<?> type) {
            MethodHandle[] h = new MethodHandle[19];
            try {
                find(type.getClassLoader(), h);
                return new WebfluxApi(h, null);
            } catch (Throwable t) {
                return new WebfluxApi(h, t);
            }
        }
    };

    private final MethodHandle method;
    private final MethodHandle path;
    private final MethodHandle rawPath;
    private final MethodHandle contextPath;
    private final MethodHandle requestHeaders;
    private final MethodHandle headerFirst;
    private final MethodHandle headerAll;
    private final MethodHandle queryParams;
    private final MethodHandle multiFirst;
    private final MethodHandle remoteAddress;
    private final MethodHandle responseHeaders;
    private final MethodHandle headerSet;
    private final MethodHandle committed;
    private final MethodHandle status;
    private final MethodHandle bufferFactory;
    private final MethodHandle wrap;
    private final MethodHandle just;
    private final MethodHandle writeWith;
    private final MethodHandle doFinally;

    /** The API as the loader of {@code request}'s class sees it. */
    static WebfluxApi of(Object request) {
        return BY_REQUEST_CLASS.get(request.getClass());
    }

    private WebfluxApi(MethodHandle[] h, Throwable problem) {
        super("Spring WebFlux", NO_PRINCIPAL | QUERY_PARAMETERS_ONLY, problem);
        method = h[0];
        path = h[1];
        contextPath = h[2];
        requestHeaders = h[3];
        headerFirst = h[4];
        headerAll = h[5];
        queryParams = h[6];
        multiFirst = h[7];
        remoteAddress = h[8];
        responseHeaders = h[9];
        headerSet = h[10];
        committed = h[11];
        status = h[12];
        bufferFactory = h[13];
        wrap = h[14];
        just = h[15];
        writeWith = h[16];
        doFinally = h[17];
        rawPath = h[18];
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> request = ErasedHandles.type(REQUEST, loader);
        Class<?> response = ErasedHandles.type(RESPONSE, loader);
        Class<?> httpMethod = ErasedHandles.type("org.springframework.http.HttpMethod", loader);
        Class<?> requestPath = ErasedHandles.type("org.springframework.http.server.RequestPath", loader);
        Class<?> pathContainer = ErasedHandles.type("org.springframework.http.server.PathContainer", loader);
        Class<?> headers = ErasedHandles.type("org.springframework.http.HttpHeaders", loader);
        Class<?> multiValueMap = ErasedHandles.type("org.springframework.util.MultiValueMap", loader);
        Class<?> statusCode = ErasedHandles.type("org.springframework.http.HttpStatusCode", loader);
        Class<?> factory = ErasedHandles.type("org.springframework.core.io.buffer.DataBufferFactory", loader);
        Class<?> dataBuffer = ErasedHandles.type("org.springframework.core.io.buffer.DataBuffer", loader);
        Class<?> mono = ErasedHandles.type("reactor.core.publisher.Mono", loader);
        Class<?> publisher = ErasedHandles.type("org.reactivestreams.Publisher", loader);

        h[0] = MethodHandles.filterReturnValue(
                lookup.findVirtual(request, "getMethod", MethodType.methodType(httpMethod)),
                lookup.findVirtual(httpMethod, "name", MethodType.methodType(String.class)));
        h[1] = MethodHandles.filterReturnValue(
                lookup.findVirtual(request, "getURI", MethodType.methodType(java.net.URI.class)),
                lookup.findVirtual(java.net.URI.class, "getPath", MethodType.methodType(String.class)));
        h[2] = MethodHandles.filterReturnValue(MethodHandles.filterReturnValue(
                lookup.findVirtual(request, "getPath", MethodType.methodType(requestPath)),
                lookup.findVirtual(requestPath, "contextPath", MethodType.methodType(pathContainer))),
                lookup.findVirtual(pathContainer, "value", MethodType.methodType(String.class)));
        h[3] = lookup.findVirtual(request, "getHeaders", MethodType.methodType(headers));
        h[4] = lookup.findVirtual(headers, "getFirst", MethodType.methodType(String.class, String.class));
        h[5] = headerList(lookup, headers);
        h[6] = lookup.findVirtual(request, "getQueryParams", MethodType.methodType(multiValueMap));
        h[7] = lookup.findVirtual(multiValueMap, "getFirst", MethodType.methodType(Object.class, Object.class));
        h[8] = lookup.findVirtual(request, "getRemoteAddress", MethodType.methodType(InetSocketAddress.class));
        h[9] = lookup.findVirtual(response, "getHeaders", MethodType.methodType(headers));
        h[10] = lookup.findVirtual(headers, "set", MethodType.methodType(void.class, String.class, String.class));
        h[11] = lookup.findVirtual(response, "isCommitted", MethodType.methodType(boolean.class));
        h[12] = MethodHandles.filterArguments(
                lookup.findVirtual(response, "setStatusCode", MethodType.methodType(boolean.class, statusCode)), 1,
                lookup.findStatic(statusCode, "valueOf", MethodType.methodType(statusCode, int.class)));
        h[13] = lookup.findVirtual(response, "bufferFactory", MethodType.methodType(factory));
        h[14] = lookup.findVirtual(factory, "wrap", MethodType.methodType(dataBuffer, byte[].class));
        h[15] = lookup.findStatic(mono, "just", MethodType.methodType(mono, Object.class));
        h[16] = lookup.findVirtual(response, "writeWith", MethodType.methodType(mono, publisher));
        h[17] = lookup.findVirtual(mono, "doFinally", MethodType.methodType(mono, Consumer.class));
        h[18] = MethodHandles.filterReturnValue(
                lookup.findVirtual(request, "getURI", MethodType.methodType(java.net.URI.class)),
                lookup.findVirtual(java.net.URI.class, "getRawPath", MethodType.methodType(String.class)));
        ErasedHandles.eraseAll(h);
    }

    /** {@code HttpHeaders.get(String)} (Spring 7) or the {@code Map.get(Object)} of Spring 6's headers. */
    private static MethodHandle headerList(MethodHandles.Lookup lookup, Class<?> headers)
            throws ReflectiveOperationException {
        try {
            return lookup.findVirtual(headers, "get", MethodType.methodType(List.class, String.class));
        } catch (NoSuchMethodException spring6) {
            return lookup.findVirtual(headers, "get", MethodType.methodType(List.class, Object.class))
                    .asType(MethodType.methodType(List.class, headers, String.class));
        }
    }

    // ---- the request

    @Override
    public String method(Object request) throws Throwable {
        return (String) method.invokeExact(request);
    }

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
        String full = (String) path.invokeExact(request);
        if (full != null && full.indexOf(';') >= 0) {
            full = RoutedPaths.ruleView((String) rawPath.invokeExact(request));
        }
        return full;
    }

    /** The context path ({@code spring.webflux.base-path}) as sent, empty without one. */
    String contextPath(Object request) throws Throwable {
        return (String) contextPath.invokeExact(request);
    }

    @Override
    public String header(Object request, String name) throws Throwable {
        Object headers = requestHeaders.invokeExact(request);
        return (String) headerFirst.invokeExact(headers, name);
    }

    @Override
    public String headerLines(Object request, String name) throws Throwable {
        Object headers = requestHeaders.invokeExact(request);
        return HeaderLines.joined((List<?>) headerAll.invokeExact(headers, name));
    }

    /** The first value of the query parameter {@code name} (decoded by Spring; the body is never read), or null. */
    @Override
    public String parameter(Object request, String name) throws Throwable {
        Object params = queryParams.invokeExact(request);
        Object value = multiFirst.invokeExact(params, (Object) name);
        return (String) value;
    }

    /** The connection's remote {@link InetAddress}, or null. */
    @Override
    public Object peer(Object request) throws Throwable {
        InetSocketAddress remote = (InetSocketAddress) remoteAddress.invokeExact(request);
        return remote == null ? null : remote.getAddress();
    }

    @Override
    public String peerText(Object peer) {
        return ((InetAddress) peer).getHostAddress();
    }

    // ---- the response

    @Override
    public boolean committed(Object response) throws Throwable {
        return (boolean) committed.invokeExact(response);
    }

    @Override
    public void setHeader(Object response, String name, String value) throws Throwable {
        Object headers = responseHeaders.invokeExact(response);
        headerSet.invokeExact(headers, name, value);
    }

    @Override
    public void status(Object response, int code) throws Throwable {
        boolean changed = (boolean) status.invokeExact(response, code); // false only once committed, checked before
    }

    /** {@code response.writeWith(Mono.just(bufferFactory().wrap(body)))}: the {@code Mono<Void>} of the write. */
    @Override
    public Object writeRejection(Object response, byte[] body, String contentType) throws Throwable {
        if (contentType != null) {
            setHeader(response, "Content-Type", contentType);
        }
        setHeader(response, "Content-Length", Integer.toString(body.length));
        Object factory = bufferFactory.invokeExact(response);
        Object buffer = wrap.invokeExact(factory, body);
        Object one = just.invokeExact(buffer);
        return writeWith.invokeExact(response, one);
    }

    /** The permits go with the woven method's return ({@link ReactiveBridge#hold}), then with its publisher. */
    @Override
    public void holdUntilEnd(Object request, HttpExchange exchange) {
        ReactiveBridge.hold(new PermitRelease(exchange.permits, this));
    }

    /** {@code mono.doFinally(then)}. */
    Object doFinally(Object mono, Consumer<?> then) throws Throwable {
        return doFinally.invokeExact(mono, then);
    }
}
