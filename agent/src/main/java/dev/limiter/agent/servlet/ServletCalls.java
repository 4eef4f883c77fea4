package dev.limiter.agent.servlet;

import java.io.OutputStream;
import java.security.Principal;
import java.util.Enumeration;

/**
 * The servlet API methods the limiter calls, one per method, with the request and response typed {@code Object}
 * (the agent's loader cannot see {@code javax.servlet} or {@code jakarta.servlet}). The one implementation is
 * {@link ConstantServletCalls}, defined once per request class as a hidden class; {@link ServletApi} builds on
 * these the parts that are logic (the path, the first dispatch, async listeners).
 */
interface ServletCalls {

    String method(Object request) throws Throwable;

    String servletPath(Object request) throws Throwable;

    String pathInfo(Object request) throws Throwable;

    String header(Object request, String name) throws Throwable;

    Enumeration<?> headers(Object request, String name) throws Throwable;

    String parameter(Object request, String name) throws Throwable;

    String remoteAddr(Object request) throws Throwable;

    Principal userPrincipal(Object request) throws Throwable;

    Object attribute(Object request, String name) throws Throwable;

    void attribute(Object request, String name, Object value) throws Throwable;

    /** The request's {@code DispatcherType}, or null on Servlet 2.5, which has none. */
    Object dispatcherType(Object request) throws Throwable;

    /** False on Servlet 2.5, which has no async processing. */
    boolean asyncStarted(Object request) throws Throwable;

    Object asyncContext(Object request) throws Throwable;

    void addAsyncListener(Object asyncContext, Object listener) throws Throwable;

    boolean committed(Object response) throws Throwable;

    void status(Object response, int status) throws Throwable;

    void header(Object response, String name, String value) throws Throwable;

    void contentType(Object response, String type) throws Throwable;

    OutputStream body(Object response) throws Throwable;
}
