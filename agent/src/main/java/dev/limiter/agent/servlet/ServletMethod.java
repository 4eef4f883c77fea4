package dev.limiter.agent.servlet;

import dev.limiter.agent.servlet.shape.AsyncContext;
import dev.limiter.agent.servlet.shape.AsyncListener;
import dev.limiter.agent.servlet.shape.DispatcherType;
import dev.limiter.agent.servlet.shape.Request;
import dev.limiter.agent.servlet.shape.Response;
import java.io.OutputStream;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;
import java.security.Principal;
import java.util.Enumeration;

/**
 * The servlet API methods the agent calls: the one list that {@link ServletApi} binds in a loop, whose ordinals
 * index the handles of {@link ConstantServletCalls}, and that {@link ServletCalls} and the {@code shape}
 * miniature must mirror ({@code ServletMethodTest} fails when they do not).
 *
 * <p>Signatures are written with the {@code shape} types standing for the servlet API's own ({@code Request}
 * for {@code HttpServletRequest}, {@code AsyncListener} for the API's {@code AsyncListener}...): the table then
 * reads like the API, and binding it to the {@code shape} itself, as the warm-up does, needs no special case.
 */
enum ServletMethod {

    GET_METHOD(Since.SERVLET_2_5, Request.class, "getMethod", String.class),
    GET_SERVLET_PATH(Since.SERVLET_2_5, Request.class, "getServletPath", String.class),
    GET_PATH_INFO(Since.SERVLET_2_5, Request.class, "getPathInfo", String.class),
    GET_HEADER(Since.SERVLET_2_5, Request.class, "getHeader", String.class, String.class),
    GET_HEADERS(Since.SERVLET_2_5, Request.class, "getHeaders", Enumeration.class, String.class),
    GET_PARAMETER(Since.SERVLET_2_5, Request.class, "getParameter", String.class, String.class),
    GET_REMOTE_ADDR(Since.SERVLET_2_5, Request.class, "getRemoteAddr", String.class),
    GET_USER_PRINCIPAL(Since.SERVLET_2_5, Request.class, "getUserPrincipal", Principal.class),
    IS_USER_IN_ROLE(Since.SERVLET_2_5, Request.class, "isUserInRole", boolean.class, String.class),
    GET_ATTRIBUTE(Since.SERVLET_2_5, Request.class, "getAttribute", Object.class, String.class),
    SET_ATTRIBUTE(Since.SERVLET_2_5, Request.class, "setAttribute", void.class, String.class, Object.class),
    GET_DISPATCHER_TYPE(Since.SERVLET_3_0, Request.class, "getDispatcherType", DispatcherType.class),
    IS_ASYNC_STARTED(Since.SERVLET_3_0, Request.class, "isAsyncStarted", boolean.class),
    GET_ASYNC_CONTEXT(Since.SERVLET_3_0, Request.class, "getAsyncContext", AsyncContext.class),
    ADD_LISTENER(Since.SERVLET_3_0, AsyncContext.class, "addListener", void.class, AsyncListener.class),
    IS_COMMITTED(Since.SERVLET_2_5, Response.class, "isCommitted", boolean.class),
    SET_STATUS(Since.SERVLET_2_5, Response.class, "setStatus", void.class, int.class),
    SET_HEADER(Since.SERVLET_2_5, Response.class, "setHeader", void.class, String.class, String.class),
    SET_CONTENT_TYPE(Since.SERVLET_2_5, Response.class, "setContentType", void.class, String.class),
    /** A {@code ServletOutputStream} in the real API. */
    GET_OUTPUT_STREAM(Since.SERVLET_2_5, Response.class, "getOutputStream", OutputStream.class);

    /**
     * The API version that added a method. The agent needs 2.5; the 3.0 methods are bound together, all or
     * none, and are null handles on 2.5.
     */
    enum Since {
        SERVLET_2_5, SERVLET_3_0
    }

    final Since since;
    /** The {@code shape} interface standing for the API type that declares the method. */
    final Class<?> owner;
    final String methodName;
    final Class<?> returns;
    final Class<?>[] parameters;
    /**
     * The handle's type as {@link ConstantServletCalls} invokes it, and the signature of the {@link ServletCalls}
     * method of the same name: receiver first, and every API type {@code Object}, since the agent's loader
     * cannot see them.
     */
    final MethodType erased;

    ServletMethod(Since since, Class<?> owner, String name, Class<?> returns, Class<?>... parameters) {
        this.since = since;
        this.owner = owner;
        this.methodName = name;
        this.returns = returns;
        this.parameters = parameters;
        Class<?>[] erasedParameters = new Class<?>[parameters.length + 1];
        erasedParameters[0] = Object.class;
        for (int i = 0; i < parameters.length; i++) {
            erasedParameters[i + 1] = erase(parameters[i]);
        }
        this.erased = MethodType.methodType(erase(returns), erasedParameters);
    }

    /**
     * The handle of this method in the API that {@code request} and {@code response} implement, adapted to
     * {@link #erased}.
     */
    MethodHandle bind(Class<?> request, Class<?> response) throws ReflectiveOperationException {
        Class<?> declaring = owner == Request.class ? request : owner == Response.class ? response
                : apiType(owner, request);
        Class<?>[] apiParameters = new Class<?>[parameters.length];
        for (int i = 0; i < parameters.length; i++) {
            apiParameters[i] = isShape(parameters[i]) ? apiType(parameters[i], request) : parameters[i];
        }
        return MethodHandles.publicLookup().unreflect(declaring.getMethod(methodName, apiParameters)).asType(erased);
    }

    /**
     * The type of {@code request}'s servlet API that {@code shape} stands for: {@code javax.servlet.AsyncListener}
     * for {@code shape.AsyncListener} and a {@code javax.servlet.http.HttpServletRequest}; the shape type itself
     * for a request of the {@code shape}, which has its types beside it.
     */
    static Class<?> apiType(Class<?> shape, Class<?> request) throws ClassNotFoundException {
        String requestName = request.getName();
        int http = requestName.indexOf(".http.");
        String apiPackage = http > 0 ? requestName.substring(0, http) : request.getPackageName();
        return Class.forName(apiPackage + "." + shape.getSimpleName(), false, request.getClassLoader());
    }

    private static Class<?> erase(Class<?> type) {
        return isShape(type) ? Object.class : type;
    }

    private static boolean isShape(Class<?> type) {
        return type.getPackageName().equals(Request.class.getPackageName());
    }
}
