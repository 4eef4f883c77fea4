package dev.limiter.agent.servlet;

import dev.limiter.agent.servlet.shape.AsyncListener;
import dev.limiter.agent.servlet.shape.DispatcherType;
import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpServerApi;
import dev.limiter.agent.http.RequestView;
import dev.limiter.agent.http.RequestViews;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
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
 * <p>It is the servlet containers' binding of the HTTP gate ({@link HttpServerApi}): every getter and setter the gate
 * and its key reader use, the first-dispatch test that counts a request once, and the rejection written to the
 * response's output stream. Permits stay with the request's thread until its outermost entry exits (or move to
 * an {@link AsyncRelease} when the servlet went async), so {@link #holdUntilEnd} has nothing to do.
 *
 * <p>Instances are immutable and cached per request class ({@link #of}). {@link #UNSUPPORTED} stands for
 * requests that are not HTTP (or whose API could not be resolved): they are never limited.
 */
final class ServletApi extends HttpServerApi {

    /** The request attribute that marks a request as counted on containers without a dispatcher type. */
    static final String COUNTED = "dev.limiter.counted";
    private static final String SERVER = "servlet container";

    static final ServletApi UNSUPPORTED = new ServletApi();

    private static final String LOGGER = "dev.limiter";

    private static final ClassValue<ServletApi> BY_REQUEST_CLASS = new ClassValue<>() {
        @Override
        protected ServletApi computeValue(Class<?> type) {
            return resolve(type);
        }
    };

    private final ServletCalls calls;
    private final Object requestDispatch;
    private final Class<?> asyncListenerType;

    private ServletApi() {
        super(SERVER, 0, new IllegalArgumentException("not an HTTP servlet request"));
        calls = null;
        requestDispatch = null;
        asyncListenerType = null;
    }

    /**
     * Binds every {@link ServletMethod} of the API that {@code req} and {@code res} implement. On Servlet 2.5,
     * which has no {@code DispatcherType} and no async processing, the 3.0 methods are left unbound (null).
     */
    ServletApi(Class<?> req, Class<?> res) throws ReflectiveOperationException, IOException {
        super(SERVER, 0, null);
        MethodHandle[] handles;
        Object initial;
        Class<?> listenerType;
        try {
            initial = enumConstant(ServletMethod.apiType(DispatcherType.class, req), "REQUEST");
            listenerType = ServletMethod.apiType(AsyncListener.class, req);
            handles = bind(req, res, ServletMethod.Since.SERVLET_3_0);
        } catch (ReflectiveOperationException | LinkageError | IllegalArgumentException servlet25) {
            initial = null;
            listenerType = null;
            handles = bind(req, res, ServletMethod.Since.SERVLET_2_5);
        }
        requestDispatch = initial;
        asyncListenerType = listenerType;
        calls = constantCalls(handles);
    }

    /** The handles of the methods the API has had since {@code version}, in {@link ServletMethod}'s order. */
    private static MethodHandle[] bind(Class<?> req, Class<?> res, ServletMethod.Since version)
            throws ReflectiveOperationException {
        ServletMethod[] methods = ServletMethod.values();
        MethodHandle[] handles = new MethodHandle[methods.length];
        for (ServletMethod method : methods) {
            if (method.since.compareTo(version) <= 0) {
                handles[method.ordinal()] = method.bind(req, res);
            }
        }
        return handles;
    }

    /**
     * A new hidden class from {@link ConstantServletCalls}' bytes, with {@code handles} as its class data: its
     * own static finals, so each request class gets handles the JIT can inline. Package-visible for the test
     * that binds it to handles of its own.
     */
    static ServletCalls constantCalls(MethodHandle[] handles) throws ReflectiveOperationException, IOException {
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

    /** Finds this binding for a servlet request (the request woven methods run in); null for any other. */
    static final RequestViews.Lookup LOOKUP = new RequestViews.Lookup() {
        @Override
        public RequestView viewOf(Object request) {
            ServletApi api = of(request);
            return api.supported ? api : null;
        }
    };

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

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static Object enumConstant(Class<?> type, String name) {
        return Enum.valueOf((Class) type.asSubclass(Enum.class), name);
    }

    @Override
    public String method(Object request) throws Throwable {
        return calls.getMethod(request);
    }

    /**
     * The path inside the application as the container decoded and normalised it: servlet path plus path
     * info (never the raw request URI, whose encoding and dot segments a client controls). Allocates only for
     * prefix mappings such as {@code /api/*}, where both parts are non-empty ({@link JoinedPath} avoids that on
     * the request path).
     */
    @Override
    public String path(Object request) throws Throwable {
        String servletPath = servletPath(request);
        String pathInfo = pathInfo(request);
        if (servletPath == null || servletPath.isEmpty()) {
            return pathInfo == null ? "/" : pathInfo;
        }
        return pathInfo == null ? servletPath : servletPath.concat(pathInfo);
    }

    String servletPath(Object request) throws Throwable {
        return calls.getServletPath(request);
    }

    String pathInfo(Object request) throws Throwable {
        return calls.getPathInfo(request);
    }

    @Override
    public String header(Object request, String name) throws Throwable {
        return calls.getHeader(request, name);
    }

    /** Every line of a header joined with {@code ", "}, or null if absent (allocates: rare paths only). */
    @Override
    public String headerLines(Object request, String name) throws Throwable {
        java.util.Enumeration<?> lines = calls.getHeaders(request, name);
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

    @Override
    public String parameter(Object request, String name) throws Throwable {
        return calls.getParameter(request, name);
    }

    /** The peer's address text as the container formats it. */
    @Override
    public Object peer(Object request) throws Throwable {
        return calls.getRemoteAddr(request);
    }

    @Override
    public String peerText(Object peer) {
        return (String) peer;
    }

    /** True if the authenticated user has {@code role}. */
    @Override
    public boolean isUserInRole(Object request, String role) throws Throwable {
        return calls.isUserInRole(request, role);
    }

    /** The authenticated user's name, or null. */
    @Override
    public String principal(Object request) throws Throwable {
        Principal principal = calls.getUserPrincipal(request);
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
    @Override
    public boolean firstDispatch(Object request) throws Throwable {
        Object type = calls.getDispatcherType(request);
        if (type != null) {
            return type == requestDispatch;
        }
        if (attribute(request, COUNTED) != null) {
            return false;
        }
        attribute(request, COUNTED, Boolean.TRUE);
        return true;
    }

    Object attribute(Object request, String name) throws Throwable {
        return calls.getAttribute(request, name);
    }

    void attribute(Object request, String name, Object value) throws Throwable {
        calls.setAttribute(request, name, value);
    }

    @Override
    public boolean committed(Object response) throws Throwable {
        return calls.isCommitted(response);
    }

    @Override
    public void status(Object response, int status) throws Throwable {
        calls.setStatus(response, status);
    }

    @Override
    public void setHeader(Object response, String name, String value) throws Throwable {
        calls.setHeader(response, name, value);
    }

    void contentType(Object response, String type) throws Throwable {
        calls.setContentType(response, type);
    }

    /** True if the servlet called {@code startAsync} and the request goes on after this dispatch returns. */
    boolean asyncStarted(Object request) throws Throwable {
        return calls.isAsyncStarted(request);
    }

    /**
     * Registers {@code handler} as an {@code AsyncListener} of the request's async context: a JDK proxy of the
     * API's own listener interface, so no class of ours has to be visible to the application's loader.
     */
    void addAsyncListener(Object request, java.lang.reflect.InvocationHandler handler) throws Throwable {
        Object listener = java.lang.reflect.Proxy.newProxyInstance(asyncListenerType.getClassLoader(),
                new Class<?>[] {asyncListenerType}, handler);
        calls.addListener(calls.getAsyncContext(request), listener);
    }

    OutputStream body(Object response) throws Throwable {
        return calls.getOutputStream(response);
    }

    @Override
    public Object writeRejection(Object response, byte[] body, String contentType) throws Throwable {
        if (body.length > 0) {
            if (contentType != null) {
                contentType(response, contentType);
            }
            OutputStream stream = body(response);
            stream.write(body);
            stream.flush();
        }
        return WRITTEN;
    }

    /** The servlet is skipped even when its rejection could not be written: the container completes the response. */
    @Override
    public Object unwritableRejection() {
        return WRITTEN;
    }

    /** The permits stay with the request's thread until its outermost entry exits ({@link ServletLimiter}). */
    @Override
    public void holdUntilEnd(Object request, HttpExchange exchange) {
    }
}
