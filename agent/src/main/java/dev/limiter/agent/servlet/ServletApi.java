package dev.limiter.agent.servlet;

import dev.limiter.agent.servlet.ConstantServletCalls.Slot;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.Principal;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * Calls into the servlet API of one request class through cached {@link MethodHandle}s.
 *
 * <p>Why method handles: the decision code lives in the agent's isolated loader, which cannot see
 * {@code javax.servlet} or {@code jakarta.servlet} (they belong to the server or the web app, possibly several
 * copies at once). The alternatives were inlining all key-reading and 429-writing code into every woven
 * method, or injecting helper classes into each application loader (OTel's HelperInjector), which needs
 * {@code Unsafe}/reflective {@code defineClass} and more of it on every Java release. A handle per method,
 * resolved once per request class against the public {@code HttpServletRequest}/{@code HttpServletResponse}
 * interface that class implements, keeps one copy of the code, works for both namespaces and any number of
 * API copies, and allocates nothing per use. The handles of a request class go into a hidden class of their own
 * ({@link ConstantServletCalls}) as static finals, so the JIT inlines each call like a direct one; held in this
 * object's fields they would stay indirect calls through lambda forms.
 *
 * <p>Instances are immutable and cached per request class ({@link #of}). {@link #UNSUPPORTED} stands for
 * requests that are not HTTP (or whose API could not be resolved): they are never limited.
 */
final class ServletApi {

    static final ServletApi UNSUPPORTED = new ServletApi();

    private static final String LOGGER = "dev.limiter";

    private static final ClassValue<ServletApi> BY_REQUEST_CLASS = new ClassValue<>() {
        @Override
        protected ServletApi computeValue(Class<?> type) {
            return resolve(type);
        }
    };

    private static final MethodType OBJ_TO_STRING = MethodType.methodType(String.class, Object.class);
    private static final MethodType OBJ_STRING_TO_STRING = MethodType.methodType(String.class, Object.class, String.class);

    final boolean supported;
    private final ServletCalls calls;
    private final Object requestDispatch;
    private final Class<?> asyncListenerType;

    private ServletApi() {
        supported = false;
        calls = null;
        requestDispatch = null;
        asyncListenerType = null;
    }

    ServletApi(Class<?> req, Class<?> res) throws ReflectiveOperationException, IOException {
        MethodHandles.Lookup lookup = MethodHandles.publicLookup();
        MethodHandle[] h = new MethodHandle[Slot.COUNT];
        h[Slot.GET_METHOD] = virtual(lookup, req, "getMethod", OBJ_TO_STRING);
        h[Slot.GET_SERVLET_PATH] = virtual(lookup, req, "getServletPath", OBJ_TO_STRING);
        h[Slot.GET_PATH_INFO] = virtual(lookup, req, "getPathInfo", OBJ_TO_STRING);
        h[Slot.GET_HEADER] = virtual(lookup, req, "getHeader", OBJ_STRING_TO_STRING);
        h[Slot.GET_HEADERS] = virtual(lookup, req, "getHeaders",
                MethodType.methodType(java.util.Enumeration.class, Object.class, String.class));
        h[Slot.GET_PARAMETER] = virtual(lookup, req, "getParameter", OBJ_STRING_TO_STRING);
        h[Slot.GET_REMOTE_ADDR] = virtual(lookup, req, "getRemoteAddr", OBJ_TO_STRING);
        h[Slot.GET_USER_PRINCIPAL] = virtual(lookup, req, "getUserPrincipal",
                MethodType.methodType(Principal.class, Object.class));
        h[Slot.GET_ATTRIBUTE] = virtual(lookup, req, "getAttribute",
                MethodType.methodType(Object.class, Object.class, String.class));
        h[Slot.SET_ATTRIBUTE] = virtual(lookup, req, "setAttribute",
                MethodType.methodType(void.class, Object.class, String.class, Object.class));
        h[Slot.IS_COMMITTED] = virtual(lookup, res, "isCommitted", MethodType.methodType(boolean.class, Object.class));
        h[Slot.SET_STATUS] = virtual(lookup, res, "setStatus",
                MethodType.methodType(void.class, Object.class, int.class));
        h[Slot.SET_HEADER] = virtual(lookup, res, "setHeader",
                MethodType.methodType(void.class, Object.class, String.class, String.class));
        h[Slot.SET_CONTENT_TYPE] = virtual(lookup, res, "setContentType",
                MethodType.methodType(void.class, Object.class, String.class));
        h[Slot.GET_OUTPUT_STREAM] = virtual(lookup, res, "getOutputStream",
                MethodType.methodType(OutputStream.class, Object.class));
        String pkg = apiPackage(req);
        Object initial;
        try {
            Class<?> type = Class.forName(pkg + ".DispatcherType", false, req.getClassLoader());
            initial = enumConstant(type, "REQUEST");
            h[Slot.GET_DISPATCHER_TYPE] = virtual(lookup, req, "getDispatcherType",
                    MethodType.methodType(Object.class, Object.class));
        } catch (ReflectiveOperationException | LinkageError | IllegalArgumentException servlet25) {
            h[Slot.GET_DISPATCHER_TYPE] = null;
            initial = null;
        }
        requestDispatch = initial;
        Class<?> listenerType;
        try {
            Class<?> asyncContext = Class.forName(pkg + ".AsyncContext", false, req.getClassLoader());
            listenerType = Class.forName(pkg + ".AsyncListener", false, req.getClassLoader());
            h[Slot.IS_ASYNC_STARTED] = virtual(lookup, req, "isAsyncStarted",
                    MethodType.methodType(boolean.class, Object.class));
            h[Slot.GET_ASYNC_CONTEXT] = lookup.unreflect(req.getMethod("getAsyncContext"))
                    .asType(MethodType.methodType(Object.class, Object.class));
            h[Slot.ADD_ASYNC_LISTENER] = lookup.unreflect(asyncContext.getMethod("addListener", listenerType))
                    .asType(MethodType.methodType(void.class, Object.class, Object.class));
        } catch (ReflectiveOperationException | LinkageError servlet25) {
            h[Slot.IS_ASYNC_STARTED] = h[Slot.GET_ASYNC_CONTEXT] = h[Slot.ADD_ASYNC_LISTENER] = null;
            listenerType = null;
        }
        asyncListenerType = listenerType;
        calls = constantCalls(h);
        supported = true;
    }

    /**
     * A new hidden class from {@link ConstantServletCalls}' bytes, with {@code handles} as its class data: its
     * own static finals, so each request class gets handles the JIT can inline.
     */
    private static ServletCalls constantCalls(MethodHandle[] handles) throws ReflectiveOperationException, IOException {
        byte[] template;
        try (InputStream in = ServletApi.class.getResourceAsStream(
                ConstantServletCalls.class.getSimpleName() + ".class")) {
            if (in == null) {
                throw new IOException("class file of " + ConstantServletCalls.class.getName() + " not found");
            }
            template = in.readAllBytes();
        }
        MethodHandles.Lookup hidden = MethodHandles.lookup().defineHiddenClassWithClassData(template, handles, true);
        return (ServletCalls) hidden.lookupClass().getDeclaredConstructor().newInstance();
    }

    /** The accessors for {@code request}'s class; {@link #UNSUPPORTED} for non-HTTP requests. */
    static ServletApi of(Object request) {
        return request == null ? UNSUPPORTED : BY_REQUEST_CLASS.get(request.getClass());
    }

    /** The hidden class that holds this API's handles (tests). */
    Class<?> callsClass() {
        return calls.getClass();
    }

    /**
     * Once per request class (cached by {@link #BY_REQUEST_CLASS}). A class of neither namespace is quietly not
     * HTTP; one whose namespace matched but whose calls could not be built is logged once, because its requests
     * then go unlimited.
     */
    private static ServletApi resolve(Class<?> requestClass) {
        ClassLoader loader = requestClass.getClassLoader();
        for (ServletNamespace ns : ServletNamespace.values()) {
            Class<?> req;
            try {
                req = Class.forName(ns.type("http.HttpServletRequest"), false, loader);
            } catch (ReflectiveOperationException | LinkageError notThisOne) {
                continue; // try the other namespace
            }
            if (!req.isAssignableFrom(requestClass)) {
                continue;
            }
            try {
                Class<?> res = Class.forName(ns.type("http.HttpServletResponse"), false, req.getClassLoader());
                return new ServletApi(req, res);
            } catch (ReflectiveOperationException | LinkageError | IOException | RuntimeException e) {
                Logger.getLogger(LOGGER).log(Level.WARNING, "limiter: cannot call the servlet API of "
                        + requestClass.getName() + "; its requests are not limited", e);
                return UNSUPPORTED;
            }
        }
        return UNSUPPORTED;
    }

    /**
     * {@code javax.servlet} for {@code javax.servlet.http.HttpServletRequest}: where {@code DispatcherType} and
     * the async types live. A type outside an {@code .http.} package (the warm-up's {@code shape}) has them
     * beside it.
     */
    private static String apiPackage(Class<?> request) {
        String name = request.getName();
        int http = name.indexOf(".http.");
        return http > 0 ? name.substring(0, http) : request.getPackageName();
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> type, String name) {
        return Enum.valueOf((Class) type.asSubclass(Enum.class), name);
    }

    /** Finds {@code name} on {@code owner} and adapts it so the receiver is typed {@code Object}. */
    private static MethodHandle virtual(MethodHandles.Lookup lookup, Class<?> owner, String name, MethodType erased)
            throws ReflectiveOperationException {
        Class<?>[] params = erased.dropParameterTypes(0, 1).parameterArray();
        java.lang.reflect.Method method = owner.getMethod(name, params);
        MethodHandle handle = lookup.unreflect(method);
        return handle.asType(erased);
    }

    String method(Object request) throws Throwable {
        return calls.method(request);
    }

    /**
     * The path inside the application as the container decoded and normalised it: servlet path plus path
     * info (never the raw request URI, whose encoding and dot segments a client controls). Allocates only for
     * prefix mappings such as {@code /api/*}, where both parts are non-empty ({@link JoinedPath} avoids that on
     * the request path).
     */
    String path(Object request) throws Throwable {
        String servletPath = servletPath(request);
        String pathInfo = pathInfo(request);
        if (servletPath == null || servletPath.isEmpty()) {
            return pathInfo == null ? "/" : pathInfo;
        }
        return pathInfo == null ? servletPath : servletPath.concat(pathInfo);
    }

    String servletPath(Object request) throws Throwable {
        return calls.servletPath(request);
    }

    String pathInfo(Object request) throws Throwable {
        return calls.pathInfo(request);
    }

    String header(Object request, String name) throws Throwable {
        return calls.header(request, name);
    }

    /** Every line of a header joined with {@code ", "}, or null if absent (allocates: rare paths only). */
    String headerLines(Object request, String name) throws Throwable {
        java.util.Enumeration<?> lines = calls.headers(request, name);
        if (lines == null || !lines.hasMoreElements()) {
            return null;
        }
        String first = String.valueOf(lines.nextElement());
        if (!lines.hasMoreElements()) {
            return first;
        }
        StringBuilder joined = new StringBuilder(first);
        while (lines.hasMoreElements()) {
            joined.append(", ").append(lines.nextElement());
        }
        return joined.toString();
    }

    String parameter(Object request, String name) throws Throwable {
        return calls.parameter(request, name);
    }

    String remoteAddr(Object request) throws Throwable {
        return calls.remoteAddr(request);
    }

    /** The authenticated user's name, or null. */
    String principal(Object request) throws Throwable {
        Principal principal = calls.userPrincipal(request);
        return principal == null ? null : principal.getName();
    }

    /**
     * True the first time the container hands {@code request} to application code, false for its later
     * dispatches (async, error, forward, include), which must not count it again. Servlet 3.0+ says so through
     * {@code getDispatcherType() == REQUEST}: one call, nothing written to the request. Servlet 2.5 (and a
     * request that reports no dispatcher type) falls back to a request attribute, {@code marker}, which the
     * first entry sets: a map read and write on every request. One case the dispatcher type cannot see: code
     * that calls a servlet's {@code service} directly (not through a dispatcher) on another thread with the
     * same request would count it again; no container or framework we test does that.
     */
    boolean firstDispatch(Object request, String marker) throws Throwable {
        Object type = calls.dispatcherType(request);
        if (type != null) {
            return type == requestDispatch;
        }
        if (attribute(request, marker) != null) {
            return false;
        }
        attribute(request, marker, Boolean.TRUE);
        return true;
    }

    Object attribute(Object request, String name) throws Throwable {
        return calls.attribute(request, name);
    }

    void attribute(Object request, String name, Object value) throws Throwable {
        calls.attribute(request, name, value);
    }

    boolean committed(Object response) throws Throwable {
        return calls.committed(response);
    }

    void status(Object response, int status) throws Throwable {
        calls.status(response, status);
    }

    void header(Object response, String name, String value) throws Throwable {
        calls.header(response, name, value);
    }

    void contentType(Object response, String type) throws Throwable {
        calls.contentType(response, type);
    }

    /** True if the servlet called {@code startAsync} and the request goes on after this dispatch returns. */
    boolean asyncStarted(Object request) throws Throwable {
        return calls.asyncStarted(request);
    }

    /**
     * Registers {@code handler} as an {@code AsyncListener} of the request's async context: a JDK proxy of the
     * API's own listener interface, so no class of ours has to be visible to the application's loader.
     */
    void addAsyncListener(Object request, java.lang.reflect.InvocationHandler handler) throws Throwable {
        Object listener = java.lang.reflect.Proxy.newProxyInstance(asyncListenerType.getClassLoader(),
                new Class<?>[] {asyncListenerType}, handler);
        calls.addAsyncListener(calls.asyncContext(request), listener);
    }

    OutputStream body(Object response) throws Throwable {
        return calls.body(response);
    }
}
