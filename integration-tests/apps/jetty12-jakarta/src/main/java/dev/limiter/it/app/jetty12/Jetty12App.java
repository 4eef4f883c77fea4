package dev.limiter.it.app.jetty12;

import dev.limiter.it.app.Endpoints;
import dev.limiter.it.support.Threads;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import java.util.EnumSet;
import org.eclipse.jetty.ee10.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.ee10.servlet.FilterHolder;
import org.eclipse.jetty.ee10.servlet.ServletContextHandler;
import org.eclipse.jetty.ee10.servlet.ServletHolder;
import org.eclipse.jetty.ee10.servlet.ServletMapping;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.util.thread.QueuedThreadPool;

/**
 * Embedded Jetty 12 (ee10, jakarta.servlet 6.0) serving the shared test endpoints. {@code main([port])}
 * (default 0: any free port) prints {@code LISTENING <port>} on stdout once requests are accepted.
 *
 * <p>On Java 21+ the thread pool gets a virtual-threads executor: Jetty then runs the (blocking) servlet work on
 * virtual threads and keeps its selectors and acceptors on the pool's platform threads.
 */
public final class Jetty12App {

    private Jetty12App() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        QueuedThreadPool threads = new QueuedThreadPool();
        if (Threads.virtualAvailable()) {
            threads.setVirtualThreadsExecutor(Threads.virtualPerTask());
        }
        Server server = new Server(threads);
        ServerConnector connector = new ServerConnector(server);
        connector.setPort(port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler("/");
        ErrorPageErrorHandler errors = new ErrorPageErrorHandler();
        context.setErrorHandler(errors);
        Endpoints.registerAll(new Endpoints.Registry() {
            @Override
            public void servlet(String name, Servlet servlet, String... mappings) {
                ServletHolder holder = new ServletHolder(name, servlet);
                holder.setAsyncSupported(true);
                context.getServletHandler().addServlet(holder);
                ServletMapping mapping = new ServletMapping();
                mapping.setServletName(name);
                mapping.setPathSpecs(mappings);
                context.getServletHandler().addServletMapping(mapping);
            }

            @Override
            public void filter(String name, Filter filter, String mapping) {
                FilterHolder holder = new FilterHolder(filter);
                holder.setName(name);
                holder.setAsyncSupported(true);
                context.addFilter(holder, mapping, EnumSet.of(DispatcherType.REQUEST));
            }

            @Override
            public void errorPage(int status, String location) {
                errors.addErrorPage(status, location);
            }
        });
        server.setHandler(context);
        server.start();
        System.out.println("LISTENING " + connector.getLocalPort());
        System.out.flush();
        server.join();
    }
}
