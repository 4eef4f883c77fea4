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
 * field it stays an indirect call through the handle's lambda forms (about a quarter of the agent's own cost
 * per request in a real Tomcat, measured with perf in session 5; docs/overhead.md).
 *
 * <p>Never loaded as an ordinary class: {@link ServletApi#calls} reads this file's bytes and defines a new hidden
 * class from them per request class, each with its own statics. The order of the handles is {@link Slot}'s.
 * A handle that the API lacks (Servlet 2.5: no dispatcher type, no async) is null.
 */
final class ConstantServletCalls implements ServletCalls {

    private static final MethodHandle[] H = handles();
    private static final MethodHandle GET_METHOD = H[Slot.GET_METHOD];
    private static final MethodHandle GET_SERVLET_PATH = H[Slot.GET_SERVLET_PATH];
    private static final MethodHandle GET_PATH_INFO = H[Slot.GET_PATH_INFO];
    private static final MethodHandle GET_HEADER = H[Slot.GET_HEADER];
    private static final MethodHandle GET_HEADERS = H[Slot.GET_HEADERS];
    private static final MethodHandle GET_PARAMETER = H[Slot.GET_PARAMETER];
    private static final MethodHandle GET_REMOTE_ADDR = H[Slot.GET_REMOTE_ADDR];
    private static final MethodHandle GET_USER_PRINCIPAL = H[Slot.GET_USER_PRINCIPAL];
    private static final MethodHandle GET_ATTRIBUTE = H[Slot.GET_ATTRIBUTE];
    private static final MethodHandle SET_ATTRIBUTE = H[Slot.SET_ATTRIBUTE];
    private static final MethodHandle GET_DISPATCHER_TYPE = H[Slot.GET_DISPATCHER_TYPE];
    private static final MethodHandle IS_ASYNC_STARTED = H[Slot.IS_ASYNC_STARTED];
    private static final MethodHandle GET_ASYNC_CONTEXT = H[Slot.GET_ASYNC_CONTEXT];
    private static final MethodHandle ADD_ASYNC_LISTENER = H[Slot.ADD_ASYNC_LISTENER];
    private static final MethodHandle IS_COMMITTED = H[Slot.IS_COMMITTED];
    private static final MethodHandle SET_STATUS = H[Slot.SET_STATUS];
    private static final MethodHandle SET_HEADER = H[Slot.SET_HEADER];
    private static final MethodHandle SET_CONTENT_TYPE = H[Slot.SET_CONTENT_TYPE];
    private static final MethodHandle GET_OUTPUT_STREAM = H[Slot.GET_OUTPUT_STREAM];

    private static MethodHandle[] handles() {
        try {
            return MethodHandles.classData(MethodHandles.lookup(), "_", MethodHandle[].class);
        } catch (IllegalAccessException e) {
            throw new IllegalStateException("defined as an ordinary class, not by ServletApi", e);
        }
    }

    @Override
    public String method(Object request) throws Throwable {
        return (String) GET_METHOD.invokeExact(request);
    }

    @Override
    public String servletPath(Object request) throws Throwable {
        return (String) GET_SERVLET_PATH.invokeExact(request);
    }

    @Override
    public String pathInfo(Object request) throws Throwable {
        return (String) GET_PATH_INFO.invokeExact(request);
    }

    @Override
    public String header(Object request, String name) throws Throwable {
        return (String) GET_HEADER.invokeExact(request, name);
    }

    @Override
    public Enumeration<?> headers(Object request, String name) throws Throwable {
        return (Enumeration<?>) GET_HEADERS.invokeExact(request, name);
    }

    @Override
    public String parameter(Object request, String name) throws Throwable {
        return (String) GET_PARAMETER.invokeExact(request, name);
    }

    @Override
    public String remoteAddr(Object request) throws Throwable {
        return (String) GET_REMOTE_ADDR.invokeExact(request);
    }

    @Override
    public Principal userPrincipal(Object request) throws Throwable {
        return (Principal) GET_USER_PRINCIPAL.invokeExact(request);
    }

    @Override
    public Object attribute(Object request, String name) throws Throwable {
        return (Object) GET_ATTRIBUTE.invokeExact(request, name);
    }

    @Override
    public void attribute(Object request, String name, Object value) throws Throwable {
        SET_ATTRIBUTE.invokeExact(request, name, value);
    }

    @Override
    public Object dispatcherType(Object request) throws Throwable {
        return GET_DISPATCHER_TYPE == null ? null : (Object) GET_DISPATCHER_TYPE.invokeExact(request);
    }

    @Override
    public boolean asyncStarted(Object request) throws Throwable {
        return IS_ASYNC_STARTED != null && (boolean) IS_ASYNC_STARTED.invokeExact(request);
    }

    @Override
    public Object asyncContext(Object request) throws Throwable {
        return (Object) GET_ASYNC_CONTEXT.invokeExact(request);
    }

    @Override
    public void addAsyncListener(Object asyncContext, Object listener) throws Throwable {
        ADD_ASYNC_LISTENER.invokeExact(asyncContext, listener);
    }

    @Override
    public boolean committed(Object response) throws Throwable {
        return (boolean) IS_COMMITTED.invokeExact(response);
    }

    @Override
    public void status(Object response, int status) throws Throwable {
        SET_STATUS.invokeExact(response, status);
    }

    @Override
    public void header(Object response, String name, String value) throws Throwable {
        SET_HEADER.invokeExact(response, name, value);
    }

    @Override
    public void contentType(Object response, String type) throws Throwable {
        SET_CONTENT_TYPE.invokeExact(response, type);
    }

    @Override
    public OutputStream body(Object response) throws Throwable {
        return (OutputStream) GET_OUTPUT_STREAM.invokeExact(response);
    }

    /** Index of each handle in the class data. */
    static final class Slot {
        static final int GET_METHOD = 0;
        static final int GET_SERVLET_PATH = 1;
        static final int GET_PATH_INFO = 2;
        static final int GET_HEADER = 3;
        static final int GET_HEADERS = 4;
        static final int GET_PARAMETER = 5;
        static final int GET_REMOTE_ADDR = 6;
        static final int GET_USER_PRINCIPAL = 7;
        static final int GET_ATTRIBUTE = 8;
        static final int SET_ATTRIBUTE = 9;
        static final int GET_DISPATCHER_TYPE = 10;
        static final int IS_ASYNC_STARTED = 11;
        static final int GET_ASYNC_CONTEXT = 12;
        static final int ADD_ASYNC_LISTENER = 13;
        static final int IS_COMMITTED = 14;
        static final int SET_STATUS = 15;
        static final int SET_HEADER = 16;
        static final int SET_CONTENT_TYPE = 17;
        static final int GET_OUTPUT_STREAM = 18;
        static final int COUNT = 19;

        private Slot() {
        }
    }
}
