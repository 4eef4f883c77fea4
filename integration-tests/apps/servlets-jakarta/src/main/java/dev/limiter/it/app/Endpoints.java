package dev.limiter.it.app;

import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;

/**
 * The one list of what every test server serves, so Tomcat and Jetty wire exactly the same application. A
 * server module implements {@link Registry} with its own embedding API.
 */
public final class Endpoints {

    /** How a server registers a servlet, a filter or an error page. Servlets and filters support async. */
    public interface Registry {
        void servlet(String name, Servlet servlet, String... mappings);

        /** A filter for REQUEST dispatches only (the servlet default), on the given mapping. */
        void filter(String name, Filter filter, String mapping);

        /** The page an error {@code status} (and an uncaught exception) is dispatched to. */
        void errorPage(int status, String location);
    }

    private Endpoints() {
    }

    public static void registerAll(Registry registry) {
        registry.filter("app-filter", new AppFilter(), "/*");
        registry.servlet("api", new ApiServlet(), "/api/*");
        registry.servlet("slow", new SlowServlet(), "/slow", "/reports/*");
        registry.servlet("forward", new ForwardServlet(), "/forward", "/include");
        registry.servlet("boom", new BoomServlet(), "/boom");
        registry.servlet("async", new AsyncServlet(), "/async/*");
        registry.servlet("error", new ErrorPageServlet(), "/error");
        registry.errorPage(500, "/error");
        registry.servlet("control", new ControlServlet(), "/app/*");
    }
}
