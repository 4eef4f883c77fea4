package dev.limiter.it.app.jetty9;

import dev.limiter.it.app.Endpoints;
import java.util.EnumSet;
import javax.servlet.DispatcherType;
import javax.servlet.Filter;
import javax.servlet.Servlet;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;
import org.eclipse.jetty.servlet.ErrorPageErrorHandler;
import org.eclipse.jetty.servlet.FilterHolder;
import org.eclipse.jetty.servlet.ServletContextHandler;
import org.eclipse.jetty.servlet.ServletHolder;
import org.eclipse.jetty.servlet.ServletMapping;

/**
 * Embedded Jetty 9.4 (javax.servlet 3.1) serving the shared test endpoints. {@code main([port])}
 * (default 0: any free port) prints {@code LISTENING <port>} on stdout once requests are accepted.
 *
 * <p>Stays on platform threads on every JVM: Jetty 9.4 (end of community support) has no virtual-thread option
 * (its {@code QueuedThreadPool} got one in 10.0.12); handing it a virtual-thread executor as its only
 * {@code ThreadPool} would also run its selector and acceptor loops on virtual threads, an untested setup.
 */
public final class Jetty9App {

    private Jetty9App() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setPort(port);
        server.addConnector(connector);
        ServletContextHandler context = new ServletContextHandler();
        context.setContextPath("/");
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
