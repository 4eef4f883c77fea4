package dev.limiter.agent.webflux;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.function.Consumer;

/**
 * The parts of Spring's reactive HTTP API (spring-web 6-7, Reactor) the adapter uses, as method handles found
 * once per request class from the application's own loader: the agent's loader cannot see Spring or Reactor,
 * and the bootstrap bridge hands their objects over as {@code Object}. Every handle is adapted to an erased type
 * ({@code Object} in, JDK types out) and called with {@code invokeExact}, which neither boxes nor allocates.
 *
 * <p>Why handles and not a helper class compiled against Spring and defined in the application's loader: the
 * agent would have to inject classes into a foreign loader (as OpenTelemetry does), which needs reflection into
 * {@code ClassLoader} or {@code Unsafe}; handles need nothing but public methods. The reactive pieces are only a
 * few: {@code Mono.just}, {@code Mono.doFinally} with a JDK {@link Consumer}, {@code writeWith},
 * {@code setComplete}. The servlet adapter's constant handles in a hidden class per request class (inlined by the
 * JIT) are not done here yet: these are instance fields, called through the handles' lambda forms.
 *
 * <p>An application whose Spring lacks one of these methods (Spring 5: no {@code HttpStatusCode}) is left alone:
 * {@link #supported} is false, and the reason is logged once by the caller.
 */
final class WebfluxApi {

    private static final String REQUEST = "org.springframework.http.server.reactive.ServerHttpRequest";
    private static final String RESPONSE = "org.springframework.http.server.reactive.ServerHttpResponse";

    private static final ClassValue<WebfluxApi> BY_REQUEST_CLASS = new ClassValue<>() {
        @Override
        protected WebfluxApi computeValue(Class<?> type) {
            return new WebfluxApi(type.getClassLoader());
        }
    };

    final boolean supported;
    /** Why not {@link #supported}, for the log; null if supported. */
    final Throwable problem;

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

    private WebfluxApi(ClassLoader loader) {
        MethodHandle[] h = new MethodHandle[19];
        Throwable failure = null;
        try {
            find(loader, h);
        } catch (Throwable t) {
            failure = t;
        }
        supported = failure == null;
        problem = failure;
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
        Class<?> request = Class.forName(REQUEST, false, loader);
        Class<?> response = Class.forName(RESPONSE, false, loader);
        Class<?> httpMethod = type("org.springframework.http.HttpMethod", loader);
        Class<?> requestPath = type("org.springframework.http.server.RequestPath", loader);
        Class<?> pathContainer = type("org.springframework.http.server.PathContainer", loader);
        Class<?> headers = type("org.springframework.http.HttpHeaders", loader);
        Class<?> multiValueMap = type("org.springframework.util.MultiValueMap", loader);
        Class<?> statusCode = type("org.springframework.http.HttpStatusCode", loader);
        Class<?> factory = type("org.springframework.core.io.buffer.DataBufferFactory", loader);
        Class<?> dataBuffer = type("org.springframework.core.io.buffer.DataBuffer", loader);
        Class<?> mono = type("reactor.core.publisher.Mono", loader);
        Class<?> publisher = type("org.reactivestreams.Publisher", loader);

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
        for (int i = 0; i < h.length; i++) {
            h[i] = h[i].asType(erased(h[i].type()));
        }
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

    /** Framework types become {@code Object}; JDK types and primitives stay as they are. */
    private static MethodType erased(MethodType type) {
        MethodType result = type;
        for (int i = 0; i < type.parameterCount(); i++) {
            if (!isJdk(type.parameterType(i))) {
                result = result.changeParameterType(i, Object.class);
            }
        }
        return isJdk(type.returnType()) ? result : result.changeReturnType(Object.class);
    }

    private static boolean isJdk(Class<?> type) {
        return type.isPrimitive() || type.isArray() || type.getClassLoader() == null;
    }

    private static Class<?> type(String name, ClassLoader loader) throws ClassNotFoundException {
        return Class.forName(name, false, loader);
    }

    // ---- the request

    /** The HTTP method's name ({@code GET}). */
    String method(Object request) throws Throwable {
        return (String) method.invokeExact(request);
    }

    /** The decoded request path ({@code URI.getPath()}, kept by the URI), context path included. */
    String fullPath(Object request) throws Throwable {
        return (String) path.invokeExact(request);
    }

    /** The request path as sent (percent-encoded), context path included. */
    String rawPath(Object request) throws Throwable {
        return (String) rawPath.invokeExact(request);
    }

    /** The context path ({@code spring.webflux.base-path}) as sent, empty without one. */
    String contextPath(Object request) throws Throwable {
        return (String) contextPath.invokeExact(request);
    }

    /** The first value of the request header {@code name}, or null. */
    String header(Object request, String name) throws Throwable {
        Object headers = requestHeaders.invokeExact(request);
        return (String) headerFirst.invokeExact(headers, name);
    }

    /** Every line of the request header {@code name} joined with {@code ,}, or null. */
    String headerLines(Object request, String name) throws Throwable {
        Object headers = requestHeaders.invokeExact(request);
        List<?> lines = (List<?>) headerAll.invokeExact(headers, name);
        if (lines == null || lines.isEmpty()) {
            return null;
        }
        if (lines.size() == 1) {
            return String.valueOf(lines.get(0));
        }
        StringBuilder joined = new StringBuilder();
        for (Object line : lines) {
            if (joined.length() > 0) {
                joined.append(',');
            }
            joined.append(line);
        }
        return joined.toString();
    }

    /** The first value of the query parameter {@code name} (decoded by Spring; the body is never read), or null. */
    String queryParam(Object request, String name) throws Throwable {
        Object params = queryParams.invokeExact(request);
        Object value = multiFirst.invokeExact(params, (Object) name);
        return (String) value;
    }

    /** The connection's remote address, or null. */
    InetSocketAddress remoteAddress(Object request) throws Throwable {
        return (InetSocketAddress) remoteAddress.invokeExact(request);
    }

    // ---- the response

    boolean committed(Object response) throws Throwable {
        return (boolean) committed.invokeExact(response);
    }

    /** The response's headers object, for {@link #setHeader}. */
    Object headers(Object response) throws Throwable {
        return responseHeaders.invokeExact(response);
    }

    void setHeader(Object headers, String name, String value) throws Throwable {
        headerSet.invokeExact(headers, name, value);
    }

    void status(Object response, int code) throws Throwable {
        boolean changed = (boolean) status.invokeExact(response, code); // false only once committed, checked before
    }

    /** {@code response.writeWith(Mono.just(bufferFactory().wrap(body)))}: the {@code Mono<Void>} of the write. */
    Object write(Object response, byte[] body) throws Throwable {
        Object factory = bufferFactory.invokeExact(response);
        Object buffer = wrap.invokeExact(factory, body);
        Object one = just.invokeExact(buffer);
        return writeWith.invokeExact(response, one);
    }

    /** {@code mono.doFinally(then)}. */
    Object doFinally(Object mono, Consumer<?> then) throws Throwable {
        return doFinally.invokeExact(mono, then);
    }
}
