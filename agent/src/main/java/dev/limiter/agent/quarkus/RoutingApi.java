package dev.limiter.agent.quarkus;

import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.function.BiConsumer;

/**
 * The parts of Vert.x Web 4.5 (and Vert.x core) the {@code http:} adapter uses, as method handles found once per
 * routing-context class from the application's own loader: the agent's loader cannot see Vert.x, and the bootstrap
 * bridge hands the context over as {@code Object}. Every handle is adapted to erased types ({@code Object} in, JDK
 * types out) and called with {@code invokeExact}, which neither boxes nor allocates. Only public interface
 * methods are used ({@code RoutingContext}, {@code HttpServerRequest}, {@code HttpServerResponse}, {@code Promise}).
 *
 * <p>The request is the routing context's ({@code RoutingContext.request()}: Vert.x Web's wrapper, which hands
 * these calls to the server's request); the peer address is its connection's ({@code connection().remoteAddress()},
 * kept by Vert.x per connection; the wrapper's own {@code remoteAddress()} parses forwarding headers per request),
 * its text kept per thread by {@link PeerText}.
 *
 * <p>The end of a request is a {@code Promise} handed to {@code RoutingContext.addEndHandler}: a promise is a
 * {@code Handler<AsyncResult<Void>>} Vert.x itself implements, so the agent needs no class of its own in the
 * application's loader; its future's {@code toCompletionStage()} takes a JDK {@link BiConsumer}. Vert.x Web calls
 * its end handlers once, when the response ends, fails or the connection closes.
 *
 * <p>An application whose Vert.x lacks one of these methods is left alone: {@link #supported} is false, and the
 * reason is logged (throttled) by the caller.
 */
final class RoutingApi implements PeerSource {

    private static final ClassValue<RoutingApi> BY_CONTEXT_CLASS = new ClassValue<>() {
        @Override
        protected RoutingApi computeValue(Class<?> type) {
            return new RoutingApi(type.getClassLoader());
        }
    };

    final boolean supported;
    /** Why not {@link #supported}, for the log; null if supported. */
    final Throwable problem;

    private final MethodHandle request;
    private final MethodHandle response;
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
    private final MethodHandle promise;
    private final MethodHandle endHandler;
    private final MethodHandle whenEnded;

    /** The API as the loader of {@code context}'s class sees it. */
    static RoutingApi of(Object context) {
        return BY_CONTEXT_CLASS.get(context.getClass());
    }

    private RoutingApi(ClassLoader loader) {
        MethodHandle[] h = new MethodHandle[17];
        Throwable failure = null;
        try {
            find(loader, h);
        } catch (Throwable t) {
            failure = t;
        }
        supported = failure == null;
        problem = failure;
        request = h[0];
        response = h[1];
        normalizedPath = h[2];
        method = h[3];
        header = h[4];
        headerAll = h[5];
        param = h[6];
        peer = h[7];
        hostAddress = h[8];
        status = h[9];
        putHeader = h[10];
        endWith = h[11];
        end = h[12];
        headWritten = h[13];
        promise = h[14];
        endHandler = h[15];
        whenEnded = h[16];
    }

    private static void find(ClassLoader loader, MethodHandle[] h) throws ReflectiveOperationException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        Class<?> context = type("io.vertx.ext.web.RoutingContext", loader);
        Class<?> request = type("io.vertx.core.http.HttpServerRequest", loader);
        Class<?> response = type("io.vertx.core.http.HttpServerResponse", loader);
        Class<?> httpMethod = type("io.vertx.core.http.HttpMethod", loader);
        Class<?> multiMap = type("io.vertx.core.MultiMap", loader);
        Class<?> connection = type("io.vertx.core.http.HttpConnection", loader);
        Class<?> address = type("io.vertx.core.net.SocketAddress", loader);
        Class<?> future = type("io.vertx.core.Future", loader);
        Class<?> promise = type("io.vertx.core.Promise", loader);
        Class<?> handler = type("io.vertx.core.Handler", loader);

        h[0] = lookup.findVirtual(context, "request", MethodType.methodType(request));
        h[1] = lookup.findVirtual(context, "response", MethodType.methodType(response));
        h[2] = lookup.findVirtual(context, "normalizedPath", MethodType.methodType(String.class));
        h[3] = MethodHandles.filterReturnValue(
                lookup.findVirtual(request, "method", MethodType.methodType(httpMethod)),
                lookup.findVirtual(httpMethod, "name", MethodType.methodType(String.class)));
        h[4] = lookup.findVirtual(request, "getHeader", MethodType.methodType(String.class, String.class));
        h[5] = MethodHandles.filterArguments(
                lookup.findVirtual(multiMap, "getAll", MethodType.methodType(List.class, String.class)), 0,
                lookup.findVirtual(request, "headers", MethodType.methodType(multiMap)));
        h[6] = lookup.findVirtual(request, "getParam", MethodType.methodType(String.class, String.class));
        h[7] = MethodHandles.filterReturnValue(
                lookup.findVirtual(request, "connection", MethodType.methodType(connection)),
                lookup.findVirtual(connection, "remoteAddress", MethodType.methodType(address)));
        h[8] = lookup.findVirtual(address, "hostAddress", MethodType.methodType(String.class));
        h[9] = lookup.findVirtual(response, "setStatusCode", MethodType.methodType(response, int.class));
        h[10] = lookup.findVirtual(response, "putHeader",
                MethodType.methodType(response, String.class, String.class));
        h[11] = lookup.findVirtual(response, "end", MethodType.methodType(future, String.class));
        h[12] = lookup.findVirtual(response, "end", MethodType.methodType(future));
        h[13] = lookup.findVirtual(response, "headWritten", MethodType.methodType(boolean.class));
        h[14] = lookup.findStatic(promise, "promise", MethodType.methodType(promise));
        h[15] = lookup.findVirtual(context, "addEndHandler", MethodType.methodType(int.class, handler));
        h[16] = MethodHandles.filterArguments(
                lookup.findVirtual(CompletionStage.class, "whenComplete",
                        MethodType.methodType(CompletionStage.class, BiConsumer.class)), 0,
                MethodHandles.filterReturnValue(
                        lookup.findVirtual(promise, "future", MethodType.methodType(future)),
                        lookup.findVirtual(future, "toCompletionStage", MethodType.methodType(CompletionStage.class))));
        for (int i = 0; i < h.length; i++) {
            h[i] = h[i].asType(erased(h[i].type()));
        }
    }

    private static Class<?> type(String name, ClassLoader loader) throws ClassNotFoundException {
        return Class.forName(name, false, loader);
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

    /** The context's request (Vert.x Web's wrapper of the server's). */
    Object request(Object context) throws Throwable {
        return (Object) request.invokeExact(context);
    }

    Object response(Object context) throws Throwable {
        return (Object) response.invokeExact(context);
    }

    /**
     * The path routes match: the request path with dot segments removed and percent-escapes of unreserved
     * characters decoded ({@code RoutingContext.normalizedPath()}, computed once per request and kept by Vert.x
     * Web, which routes on it anyway).
     */
    String normalizedPath(Object context) throws Throwable {
        return (String) normalizedPath.invokeExact(context);
    }

    /** The method's name ({@code GET}); Vert.x keeps one per method, so this makes no string. */
    String method(Object request) throws Throwable {
        return (String) method.invokeExact(request);
    }

    /** The first value of header {@code name}, or null. */
    String header(Object request, String name) throws Throwable {
        return (String) header.invokeExact(request, name);
    }

    /** Every line of header {@code name} joined with {@code ,} (what the trusted-proxy rules read), or null. */
    @Override
    public String headerLines(Object request, String name) throws Throwable {
        return HeaderLines.joined((List<?>) headerAll.invokeExact(request, name));
    }

    /** The query parameter {@code name} (decoded; the body is never read), or null. */
    String queryParam(Object request, String name) throws Throwable {
        return (String) param.invokeExact(request, name);
    }

    /** The connection's peer address ({@code SocketAddress}, one per connection), or null. */
    @Override
    public Object peer(Object request) throws Throwable {
        return (Object) peer.invokeExact(request);
    }

    @Override
    public String hostAddress(Object address) throws Throwable {
        return (String) hostAddress.invokeExact(address);
    }

    /** True once the status line and headers are written (then nothing can be set any more). */
    boolean headWritten(Object response) throws Throwable {
        return (boolean) headWritten.invokeExact(response);
    }

    void status(Object response, int code) throws Throwable {
        Object self = (Object) status.invokeExact(response, code);
    }

    void putHeader(Object response, String name, String value) throws Throwable {
        Object self = (Object) putHeader.invokeExact(response, name, value);
    }

    /** Ends the response with {@code body} (UTF-8; Vert.x sets its {@code Content-Length}). */
    void end(Object response, String body) throws Throwable {
        Object written = (Object) endWith.invokeExact(response, body);
    }

    /** Ends the response with no body. */
    void end(Object response) throws Throwable {
        Object written = (Object) end.invokeExact(response);
    }

    /** Calls {@code release} once the request ends: a promise among the context's end handlers. */
    void whenEnded(Object context, BiConsumer<Object, Throwable> release) throws Throwable {
        Object ended = (Object) promise.invokeExact();
        CompletionStage<?> chained = (CompletionStage<?>) whenEnded.invokeExact(ended, release);
        int index = (int) endHandler.invokeExact(context, ended);
    }
}
