package dev.limiter.agent.servlet;

import dev.limiter.agent.servlet.shape.AsyncContext;
import dev.limiter.agent.servlet.shape.DispatcherType;
import dev.limiter.agent.servlet.shape.Request;
import dev.limiter.agent.servlet.shape.Response;
import dev.limiter.rules.RuleSet;
import java.io.OutputStream;
import java.security.Principal;
import java.util.Collections;
import java.util.Enumeration;

/**
 * Runs the first request's one-time work once on the agent's rules thread, before the application's first
 * request: binding a request class's servlet API ({@link ServletApi}: a method handle per
 * {@link ServletMethod}, their lambda forms, a hidden class of constants; 8-10 ms of that first request on
 * Java 25) and matching a path against the rules ({@link RequestScratch}, the path and rule tables). The
 * handles are bound to {@code shape}, a miniature with the servlet API's signatures, whose lambda forms are
 * the ones a real request class needs (they depend on the signatures' basic types only); the match reads the
 * rules and changes nothing, and no limiter is called.
 *
 * <p>What cannot be done ahead: the real request class's own handles and hidden class, and loading its servlet
 * API's types. Each call runs once, interpreted, before any type profile exists, so the request path's profiles
 * (and the JIT's inlining) see only the application's request classes. A failure here is ignored: the first
 * request does the work itself and reports its own failures.
 */
public final class ServletWarmUp {

    /** The synthetic request's path. */
    static final String PATH = "/limiter-warm-up";

    private ServletWarmUp() {
    }

    /**
     * Binds and calls the shape's API once and matches a path against {@code rules}; never throws. False if
     * that failed: only time is lost, the first request binds what it needs and reports its own failures.
     */
    public static boolean run(RuleSet rules) {
        try {
            exercise(rules);
            return true;
        } catch (Throwable ignored) {
            return false;
        }
    }

    /** {@link #run}, failures thrown; the number of {@code rules} that match {@value #PATH} (tests). */
    static int exercise(RuleSet rules) throws Throwable {
        ServletApi api = new ServletApi(Request.class, Response.class);
        Exchange exchange = new Exchange();
        api.firstDispatch(exchange);
        api.header(exchange, "X-Forwarded-For");
        api.headerLines(exchange, "X-Forwarded-For");
        api.parameter(exchange, "key");
        api.peer(exchange);
        api.principal(exchange);
        api.asyncStarted(exchange);
        api.committed(exchange);
        api.setHeader(exchange, "RateLimit", "warm-up");
        api.status(exchange, 200);
        api.contentType(exchange, "text/plain");
        api.body(exchange);
        RequestScratch scratch = new RequestScratch();
        String path = scratch.paths.path(api, exchange);
        int matched = rules.maxHttpMatches() == 0 ? 0 : scratch.match(rules, api.method(exchange), path);
        scratch.end();
        return matched;
    }

    /** A request and its response in one, answering like an idle GET. */
    private static final class Exchange implements Request, Response {

        @Override
        public String getMethod() {
            return "GET";
        }

        @Override
        public String getServletPath() {
            return PATH;
        }

        @Override
        public String getPathInfo() {
            return null;
        }

        @Override
        public String getHeader(String name) {
            return null;
        }

        @Override
        public Enumeration<String> getHeaders(String name) {
            return Collections.emptyEnumeration();
        }

        @Override
        public String getParameter(String name) {
            return null;
        }

        @Override
        public String getRemoteAddr() {
            return "127.0.0.1";
        }

        @Override
        public Principal getUserPrincipal() {
            return null;
        }

        @Override
        public boolean isUserInRole(String role) {
            return false;
        }

        @Override
        public Object getAttribute(String name) {
            return null;
        }

        @Override
        public void setAttribute(String name, Object value) {
        }

        @Override
        public DispatcherType getDispatcherType() {
            return DispatcherType.REQUEST;
        }

        @Override
        public boolean isAsyncStarted() {
            return false;
        }

        @Override
        public AsyncContext getAsyncContext() {
            return null;
        }

        @Override
        public boolean isCommitted() {
            return false;
        }

        @Override
        public void setStatus(int status) {
        }

        @Override
        public void setHeader(String name, String value) {
        }

        @Override
        public void setContentType(String type) {
        }

        @Override
        public OutputStream getOutputStream() {
            return OutputStream.nullOutputStream();
        }
    }
}
