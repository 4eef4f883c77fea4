package dev.limiter.it.app.resteasy;

import dev.limiter.it.jaxrs.RestApplication;
import dev.limiter.it.support.Threads;
import io.undertow.Undertow;
import io.undertow.servlet.Servlets;
import io.undertow.servlet.api.DeploymentInfo;
import io.undertow.servlet.api.DeploymentManager;
import java.net.InetSocketAddress;
import java.util.concurrent.ExecutorService;
import org.jboss.resteasy.plugins.server.servlet.HttpServlet30Dispatcher;

/**
 * RESTEasy's servlet dispatcher on embedded Undertow serving {@link RestApplication} at {@code /rest/*}: a
 * JAX-RS runtime on a servlet container that is not Jersey. {@code main([port])} (default 0: any free port)
 * prints {@code LISTENING <port>} once requests are accepted.
 *
 * <p>One source for RESTEasy 6.2 and 7: resteasy7-undertow compiles this file as it is. On Java 21+ the deployment
 * runs requests on virtual threads (its executor), as the servlet Undertow app does.
 */
public final class ResteasyUndertowApp {

    private ResteasyUndertowApp() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        DeploymentInfo deployment = Servlets.deployment()
                .setClassLoader(ResteasyUndertowApp.class.getClassLoader())
                .setContextPath("/")
                .setDeploymentName("limiter-it-resteasy")
                .addServlet(Servlets.servlet("resteasy", HttpServlet30Dispatcher.class)
                        .addInitParam("jakarta.ws.rs.Application", RestApplication.class.getName())
                        .addInitParam("resteasy.servlet.mapping.prefix", "/rest")
                        .addMapping("/rest/*")
                        .setAsyncSupported(true)
                        // initialise RESTEasy before LISTENING, not on the first request
                        .setLoadOnStartup(1));
        if (Threads.virtualAvailable()) {
            ExecutorService virtual = Threads.virtualPerTask();
            deployment.setExecutor(virtual).setAsyncExecutor(virtual);
        }
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
