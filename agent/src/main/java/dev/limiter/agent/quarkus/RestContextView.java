package dev.limiter.agent.quarkus;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.http.RequestView;
import dev.limiter.agent.http.RequestViews;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.util.List;

/**
 * What the HTTP keys need of a RESTEasy Reactive request context on Vert.x (Quarkus REST), as method handles
 * found once per context class from the application's own loader (Quarkus' {@code RunnerClassLoader} or
 * {@code QuarkusClassLoader}): the agent's loader cannot see Vert.x or RESTEasy Reactive, and the bootstrap bridge
 * hands the context over as {@code Object}. Every handle is adapted to erased types and called with
 * {@code invokeExact}, which neither boxes nor allocates.
 *
 * <p>The context ({@code VertxResteasyReactiveRequestContext}) is also the runtime's {@code ServerHttpRequest}:
 * headers, the query and the normalised path come from it; the peer address from its Vert.x
 * {@code HttpServerRequest}'s connection ({@code connection().remoteAddress()}, kept by Vert.x per connection; its
 * text is kept per thread): the peer of the TCP connection, as a servlet's
 * {@code getRemoteAddr()}, so the {@code client-ip} trusted-proxy rules apply as on every other server. A context of another class (RESTEasy Reactive on another server) is not
 * {@link #supported}.
 */
public final class RestContextView extends RequestView {

    static final String CONTEXT = "org.jboss.resteasy.reactive.server.vertx.VertxResteasyReactiveRequestContext";

    private static final ClassValue<RestContextView> BY_CONTEXT_CLASS = new ClassValue<>() {
        @Override
        protected RestContextView computeValue(Class<?> type) {
            MethodHandle[] h = new MethodHandle[VIEW_HANDLES];
            try {
                return new RestContextView(find(type, h) ? h : null, null);
            } catch (ReflectiveOperationException | RuntimeException | LinkageError e) {
                return new RestContextView(null, e);
            }
        }
    };

    final boolean supported;
    /** Why a Vert.x context is not {@link #supported} (a method missing in this version), for the log; else null. */
    final Throwable problem;

    /** The view of {@code request}'s class (answers {@link #supported} false for any other object). */
    static RestContextView of(Object request) {
        return BY_CONTEXT_CLASS.get(request.getClass());
    }

    /**
     * Finds this view for a Quarkus REST request (the request woven resource methods run in); null for any other
     * request. A context whose methods are missing in this version is said in the log (throttled): then the HTTP
     * keys of {@code jaxrs:} rules are missing there.
     */
    public static RequestViews.Lookup lookup(ThrottledLog log) {
        return new RequestViews.Lookup() {
            @Override
            public RequestView viewOf(Object request) {
                RestContextView view = of(request);
                if (!view.supported && view.problem != null) {
                    log.warn(Warning.UNSUPPORTED,
                            "limiter: this Quarkus REST (RESTEasy Reactive on Vert.x) is not supported; HTTP keys"
                            + " of jaxrs rules are missing there", view.problem);
                }
                return view.supported ? view : null;
            }
        };
    }

    /** {@code h}: the getters, or null for a context that is not Quarkus REST's or not supported. */
    private RestContextView(MethodHandle[] h, Throwable problem) {
        super("Quarkus REST", NO_PRINCIPAL | QUERY_PARAMETERS_ONLY, h);
        this.supported = h != null;
        this.problem = problem;
    }

    private static boolean find(Class<?> type, MethodHandle[] h) throws ReflectiveOperationException {
        if (!isNamed(type, CONTEXT)) {
            return false; // not a RESTEasy Reactive context on Vert.x (a servlet request, say): no class is loaded
        }
        ClassLoader loader = type.getClassLoader();
        Class<?> context = Class.forName(CONTEXT, false, loader);
        Class<?> request = Class.forName("io.vertx.core.http.HttpServerRequest", false, loader);
        Class<?> address = Class.forName("io.vertx.core.net.SocketAddress", false, loader);
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodType objectToString = MethodType.methodType(String.class, Object.class);
        MethodType objectStringToString = MethodType.methodType(String.class, Object.class, String.class);
        h[HEADER] = lookup.findVirtual(context, "getRequestHeader",
                        MethodType.methodType(String.class, CharSequence.class))
                .asType(objectStringToString);
        h[HEADER_LINES] = lookup.findVirtual(context, "getAllRequestHeaders",
                        MethodType.methodType(List.class, String.class))
                .asType(MethodType.methodType(List.class, Object.class, String.class));
        h[PARAMETER] = lookup.findVirtual(context, "getQueryParam", MethodType.methodType(String.class, String.class))
                .asType(objectStringToString);
        h[PATH] = lookup.findVirtual(context, "getRequestNormalisedPath", MethodType.methodType(String.class))
                .asType(objectToString);
        Class<?> connection = Class.forName("io.vertx.core.http.HttpConnection", false, loader);
        // the connection's address, not the request's: vertx-web's request wrapper answers remoteAddress() by
        // parsing the forwarding headers and formatting the absolute URI once per request (~290 bytes)
        h[PEER] = MethodHandles.filterReturnValue(MethodHandles.filterReturnValue(
                lookup.findVirtual(context, "vertxServerRequest", MethodType.methodType(request)),
                lookup.findVirtual(request, "connection", MethodType.methodType(connection))),
                lookup.findVirtual(connection, "remoteAddress", MethodType.methodType(address)))
                .asType(MethodType.methodType(Object.class, Object.class));
        h[PEER_TEXT] = lookup.findVirtual(address, "hostAddress", MethodType.methodType(String.class))
                .asType(objectToString);
        return true;
    }

    /** True if {@code type} or a superclass is named {@code name} (by name: nothing is loaded). */
    private static boolean isNamed(Class<?> type, String name) {
        for (Class<?> at = type; at != null; at = at.getSuperclass()) {
            if (at.getName().equals(name)) {
                return true;
            }
        }
        return false;
    }
}
