package dev.limiter.it.app.undertow;

import dev.limiter.it.app.Endpoints;
import dev.limiter.it.support.Threads;
import io.undertow.Undertow;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import io.undertow.servlet.api.ErrorPage;
import io.undertow.servlet.util.ImmediateInstanceFactory;
import jakarta.servlet.DispatcherType;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;

/**
 * Embedded Undertow 2.3 (jakarta.servlet 6.0) serving the shared test endpoints. {@code main([port])} (default 0:
 * any free port) prints {@code LISTENING <port>} on stdout once requests are accepted. The listener binds
 * {@code 0.0.0.0} like the other servers, so the peer address the agent sees is the loopback address the tests
 * call from.
 *
 * <p>On Java 21+ the deployment's executors are a virtual-thread-per-task executor: Undertow hands each servlet
 * request (and {@code AsyncContext.start} work) from its XNIO I/O thread to a virtual thread instead of an XNIO
 * worker thread.
 */
public final class UndertowApp {

    private UndertowApp() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        DeploymentInfo deployment = Servlets.deployment()
                .setClassLoader(UndertowApp.class.getClassLoader())
                .setContextPath("/")
                .setDeploymentName("limiter-it");
        if (Threads.virtualAvailable()) {
            ExecutorService virtual = Threads.virtualPerTask();
            deployment.setExecutor(virtual).setAsyncExecutor(virtual);
        }
        Endpoints.registerAll(new Endpoints.Registry() {
            @Override
            public void servlet(String name, Servlet servlet, String... mappings) {
                deployment.addServlet(Servlets.servlet(name, servlet.getClass(), new ImmediateInstanceFactory<>(servlet))
                        .addMappings(mappings)
                        .setAsyncSupported(true));
            }

            @Override
            public void filter(String name, Filter filter, String mapping) {
                deployment.addFilter(Servlets.filter(name, filter.getClass(), new ImmediateInstanceFactory<>(filter))
                        .setAsyncSupported(true));
                deployment.addFilterUrlMapping(name, mapping, DispatcherType.REQUEST);
            }

            @Override
            public void errorPage(int status, String location) {
                deployment.addErrorPage(new ErrorPage(location, status));
                if (status == 500) {
                    // Tomcat and Jetty send an uncaught exception to the 500 page; Undertow needs it said
                    deployment.addErrorPage(new ErrorPage(location, Throwable.class));
                }
            }
        });
        DeploymentManager manager = Servlets.defaultContainer().addDeployment(deployment);
        manager.deploy();
        Undertow server = Undertow.builder()
                .addHttpListener(port, "0.0.0.0")
                .setHandler(manager.start())
                .build();
        server.start();
        InetSocketAddress bound = (InetSocketAddress) server.getListenerInfo().get(0).getAddress();
        System.out.println("LISTENING " + bound.getPort());
        System.out.flush();
    }
}
