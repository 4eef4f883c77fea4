package dev.limiter.agent.servlet.shape;

import java.security.Principal;
import java.util.Enumeration;

/** The {@code HttpServletRequest} methods of {@code ServletMethod}, with their signatures. */
public interface Request {

    String getMethod();

    String getServletPath();

    String getPathInfo();

    String getHeader(String name);

    Enumeration<String> getHeaders(String name);

    String getParameter(String name);

    String getRemoteAddr();

    Principal getUserPrincipal();

    boolean isUserInRole(String role);

    Object getAttribute(String name);

    void setAttribute(String name, Object value);

    DispatcherType getDispatcherType();

    boolean isAsyncStarted();

    AsyncContext getAsyncContext();
}
