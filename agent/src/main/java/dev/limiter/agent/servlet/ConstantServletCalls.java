package dev.limiter.agent.servlet;

import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.security.Principal;
import java.util.Enumeration;

/**
 * Template of the hidden class {@link ServletApi} defines for each request class: its method handles, passed as
 * the hidden class's class data, sit in static final fields, which the JIT treats as constants. A call through
 * a constant handle inlines like a direct call to the container's method; through a handle held in an instance
 * field it stays an indirect call through the handle's lambda forms, which cost about a quarter of the agent's
 * own time per request in a real Tomcat (docs/overhead.md).
 *
 * <p>Written out by hand, one field and one typed {@code invokeExact} per {@link ServletMethod}, because a
 * static final per handle and a call site of the exact type are what the JIT needs; {@code ServletMethodTest}
 * fails when a method here calls another entry's handle or with another type than the table's.
 *
 * <p>Never loaded as an ordinary class: {@link ServletApi} reads this file's bytes and defines a new hidden
 * class from them per request class, each with its own statics. The class data holds the handles in
 * {@link ServletMethod}'s order; a handle that the API lacks (Servlet 2.5: no dispatcher type, no async) is
 * null.
 */
final class ConstantServletCalls implements ServletCalls {

    private static final MethodHandle[] H = handles();
    private static final MethodHandle GET_METHOD = H[ServletMethod.GET_METHOD.ordinal()];
    private static final MethodHandle GET_SERVLET_PATH = H[ServletMethod.GET_SERVLET_PATH.ordinal()];
    private static final MethodHandle GET_PATH_INFO = H[ServletMethod.GET_PATH_INFO.ordinal()];
    private static final MethodHandle GET_HEADER = H[ServletMethod.GET_HEADER.ordinal()];
    private static final MethodHandle GET_HEADERS = H[ServletMethod.GET_HEADERS.ordinal()];
    private static final MethodHandle GET_PARAMETER = H[ServletMethod.GET_PARAMETER.ordinal()];
    private static final MethodHandle GET_REMOTE_ADDR = H[ServletMethod.GET_REMOTE_ADDR.ordinal()];
    private static final MethodHandle GET_USER_PRINCIPAL = H[ServletMethod.GET_USER_PRINCIPAL.ordinal()];
    private static final MethodHandle IS_USER_IN_ROLE = H[ServletMethod.IS_USER_IN_ROLE.ordinal()];
    private static final MethodHandle GET_ATTRIBUTE = H[ServletMethod.GET_ATTRIBUTE.ordinal()];
    private static final MethodHandle SET_ATTRIBUTE = H[ServletMethod.SET_ATTRIBUTE.ordinal()];
    private static final MethodHandle GET_DISPATCHER_TYPE = H[ServletMethod.GET_DISPATCHER_TYPE.ordinal()];
    private static final MethodHandle IS_ASYNC_STARTED = H[ServletMethod.IS_ASYNC_STARTED.ordinal()];
    private static final MethodHandle GET_ASYNC_CONTEXT = H[ServletMethod.GET_ASYNC_CONTEXT.ordinal()];
    private static final MethodHandle ADD_LISTENER = H[ServletMethod.ADD_LISTENER.ordinal()];
    private static final MethodHandle IS_COMMITTED = H[ServletMethod.IS_COMMITTED.ordinal()];
    private static final MethodHandle SET_STATUS = H[ServletMethod.SET_STATUS.ordinal()];
    private static final MethodHandle SET_HEADER = H[ServletMethod.SET_HEADER.ordinal()];
    private static final MethodHandle SET_CONTENT_TYPE = H[ServletMethod.SET_CONTENT_TYPE.ordinal()];
    private static final MethodHandle GET_OUTPUT_STREAM = H[ServletMethod.GET_OUTPUT_STREAM.ordinal()];

    private static MethodHandle[] handles() {
        try {
            return MethodHandles.classData(MethodHandles.lookup(), "_", MethodHandle[].class);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("defined as an ordinary class, not by ServletApi", e);
        }
    }

    @Override
    public String getMethod(Object request) throws Throwable {
        return (String) GET_METHOD.invokeExact(request);
    }

    @Override
    public String getServletPath(Object request) throws Throwable {
        return (String) GET_SERVLET_PATH.invokeExact(request);
    }

    @Override
    public String getPathInfo(Object request) throws Throwable {
        return (String) GET_PATH_INFO.invokeExact(request);
    }

    @Override
    public String getHeader(Object request, String name) throws Throwable {
        return (String) GET_HEADER.invokeExact(request, name);
    }

    @Override
    public Enumeration<?> getHeaders(Object request, String name) throws Throwable {
        return (Enumeration<?>) GET_HEADERS.invokeExact(request, name);
    }

    @Override
    public String getParameter(Object request, String name) throws Throwable {
        return (String) GET_PARAMETER.invokeExact(request, name);
    }

    @Override
    public String getRemoteAddr(Object request) throws Throwable {
        return (String) GET_REMOTE_ADDR.invokeExact(request);
    }

    @Override
    public Principal getUserPrincipal(Object request) throws Throwable {
        return (Principal) GET_USER_PRINCIPAL.invokeExact(request);
    }

    @Override
    public boolean isUserInRole(Object request, String role) throws Throwable {
        return (boolean) IS_USER_IN_ROLE.invokeExact(request, role);
    }

    @Override
    public Object getAttribute(Object request, String name) throws Throwable {
        return (Object) GET_ATTRIBUTE.invokeExact(request, name);
    }

    @Override
    public void setAttribute(Object request, String name, Object value) throws Throwable {
        SET_ATTRIBUTE.invokeExact(request, name, value);
    }

    @Override
    public Object getDispatcherType(Object request) throws Throwable {
        return GET_DISPATCHER_TYPE == null ? null : (Object) GET_DISPATCHER_TYPE.invokeExact(request);
    }

    @Override
    public boolean isAsyncStarted(Object request) throws Throwable {
        return IS_ASYNC_STARTED != null && (boolean) IS_ASYNC_STARTED.invokeExact(request);
    }

    @Override
    public Object getAsyncContext(Object request) throws Throwable {
        return (Object) GET_ASYNC_CONTEXT.invokeExact(request);
    }

    @Override
    public void addListener(Object asyncContext, Object listener) throws Throwable {
        ADD_LISTENER.invokeExact(asyncContext, listener);
    }

    @Override
    public boolean isCommitted(Object response) throws Throwable {
        return (boolean) IS_COMMITTED.invokeExact(response);
    }

    @Override
    public void setStatus(Object response, int status) throws Throwable {
        SET_STATUS.invokeExact(response, status);
    }

    @Override
    public void setHeader(Object response, String name, String value) throws Throwable {
        SET_HEADER.invokeExact(response, name, value);
    }

    @Override
    public void setContentType(Object response, String type) throws Throwable {
        SET_CONTENT_TYPE.invokeExact(response, type);
    }

    @Override
    public OutputStream getOutputStream(Object response) throws Throwable {
        return (OutputStream) GET_OUTPUT_STREAM.invokeExact(response);
    }
}
