package dev.limiter.agent.servlet;

import java.io.OutputStream;
import java.security.Principal;
import java.util.Enumeration;

/**
 * One method per {@link ServletMethod}, of the same name and of its {@link ServletMethod#erased erased} type:
 * the receiver comes first and every servlet API type is {@code Object} (the agent's loader cannot see
 * {@code javax.servlet} or {@code jakarta.servlet}). The one implementation is {@link ConstantServletCalls},
 * defined once per request class as a hidden class; {@link ServletApi} builds on these the parts that are
 * logic (the path, the first dispatch, async listeners).
 */
interface ServletCalls {

    String getMethod(Object request) throws Throwable;

    String getServletPath(Object request) throws Throwable;

    String getPathInfo(Object request) throws Throwable;

    String getHeader(Object request, String name) throws Throwable;

    Enumeration<?> getHeaders(Object request, String name) throws Throwable;

    String getParameter(Object request, String name) throws Throwable;

    String getRemoteAddr(Object request) throws Throwable;

    Principal getUserPrincipal(Object request) throws Throwable;

    boolean isUserInRole(Object request, String role) throws Throwable;

    Object getAttribute(Object request, String name) throws Throwable;

    void setAttribute(Object request, String name, Object value) throws Throwable;

    /** The request's {@code DispatcherType}, or null on Servlet 2.5, which has none. */
    Object getDispatcherType(Object request) throws Throwable;

    /** False on Servlet 2.5, which has no async processing. */
    boolean isAsyncStarted(Object request) throws Throwable;

    Object getAsyncContext(Object request) throws Throwable;

    void addListener(Object asyncContext, Object listener) throws Throwable;

    boolean isCommitted(Object response) throws Throwable;

    void setStatus(Object response, int status) throws Throwable;

    void setHeader(Object response, String name, String value) throws Throwable;

    void setContentType(Object response, String type) throws Throwable;

    OutputStream getOutputStream(Object response) throws Throwable;
}
