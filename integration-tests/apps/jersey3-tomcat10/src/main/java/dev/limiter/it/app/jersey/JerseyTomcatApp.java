package dev.limiter.it.app.jersey;

import dev.limiter.it.jaxrs.RestApplication;
import dev.limiter.it.support.Threads;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.servlet.ServletContainer;

/**
 * Embedded Tomcat with Jersey's {@code ServletContainer} serving {@link RestApplication} at {@code /rest/*}, the
 * way most Jersey services on a servlet container are wired. {@code main([port])} (default 0: any free port)
 * prints {@code LISTENING <port>} once requests are accepted.
 *
 * <p>One source for three stacks: Jersey's embedding API is the same in 2, 3.1 and 4, so jersey4-tomcat11
 * compiles this file as it is against Jersey 4 and Tomcat 11, and jersey2-tomcat9-javax compiles a copy with
 * {@code jakarta.*} renamed to {@code javax.*} against Jersey 2 and Tomcat 9.
 *
 * <p>On Java 21+ the connector serves requests on virtual threads ({@code useVirtualThreads}: Tomcat 9.0.111, 10.1
 * and 11 all have it, and each stack's test checks it). The Tomcat set-up repeats {@code TomcatApp}'s on purpose:
 * the two compile against different Tomcat generations in modules that share no server dependency.
 */
public final class JerseyTomcatApp {

    private JerseyTomcatApp() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Path base = Files.createTempDirectory("limiter-it-jersey");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(port);
        Connector connector = tomcat.getConnector();
        if (Threads.virtualAvailable()) {
            connector.setProperty("useVirtualThreads", "true");
        }
        Context context = tomcat.addContext("", base.toString());
        ServletContainer jersey = new ServletContainer(ResourceConfig.forApplication(new RestApplication()));
        Wrapper wrapper = Tomcat.addServlet(context, "jersey", jersey);
        wrapper.setAsyncSupported(true);
        // initialise Jersey before LISTENING, not on the first request (which a test may be timing)
        wrapper.setLoadOnStartup(1);
        context.addServletMappingDecoded("/rest/*", "jersey");
        tomcat.start();
        System.out.println("LISTENING " + connector.getLocalPort());
        System.out.flush();
        tomcat.getServer().await();
    }
}
