package dev.limiter.demo.service;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.Wrapper;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.glassfish.jersey.CommonProperties;
import org.glassfish.jersey.server.ResourceConfig;
import org.glassfish.jersey.server.ServerProperties;
import org.glassfish.jersey.servlet.ServletContainer;

/**
 * The demo service: an ordinary embedded Tomcat 11 application with servlet endpoints and a Jersey resource.
 *
 * <p>It contains no limiter code on purpose: the rate limits come only from {@code -javaagent:limiter.jar} and
 * {@code examples/rules.yml}, which is what the demo is meant to show, plus one {@code @Limit} annotation on
 * {@link PartnerRatesClient} (the API artifact's annotation: a limit declared in code, still enforced only by
 * the agent), and one real outbound call, {@link PartnerShippingClient}, that the rules file paces. {@code main([port])} (default 0: any
 * free port) prints {@code LISTENING <port>} on stdout once requests are accepted; {@code scripts/demo} waits
 * for that line.
 */
public final class DemoServer {

    /** The line that tells the launcher the server accepts requests. */
    public static final String READY = "LISTENING ";

    private final Tomcat tomcat;
    private final Connector connector;

    private DemoServer(Tomcat tomcat, Connector connector) {
        this.tomcat = tomcat;
        this.connector = connector;
    }

    public static void main(String[] args) throws Exception {
        DemoServer server = start(args.length > 0 ? Integer.parseInt(args[0]) : 0);
        System.out.println(READY + server.port());
        System.out.flush();
        server.tomcat.getServer().await();
    }

    /** Starts the service on {@code port} (0: any free port). */
    public static DemoServer start(int port) throws Exception {
        Path base = Files.createTempDirectory("limiter-demo");
        base.toFile().deleteOnExit();
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(port);
        tomcat.getHost().setAutoDeploy(false);
        Connector connector = tomcat.getConnector();
        connector.setProperty("address", "127.0.0.1");
        Context context = tomcat.addContext("", base.toString());
        for (Endpoint endpoint : Endpoint.values()) {
            Tomcat.addServlet(context, endpoint.name(), new EndpointServlet(endpoint)).addMapping(endpoint.mapping());
        }
        // Jersey starts with the server, not on the first request: its start-up takes seconds on a busy machine
        Wrapper jersey = Tomcat.addServlet(context, "jersey",
                new ServletContainer(jerseyConfig()));
        jersey.setLoadOnStartup(1);
        jersey.addMapping("/rest/*");
        tomcat.start();
        PartnerShippingClient.partnerAt("http://127.0.0.1:" + connector.getLocalPort());
        return new DemoServer(tomcat, connector);
    }

    /** Only our resource: no provider discovery, no WADL (each costs start-up time and log noise). */
    private static ResourceConfig jerseyConfig() {
        return new ResourceConfig(CatalogResource.class)
                .property(CommonProperties.FEATURE_AUTO_DISCOVERY_DISABLE, true)
                .property(CommonProperties.METAINF_SERVICES_LOOKUP_DISABLE, true)
                .property(ServerProperties.WADL_FEATURE_DISABLE, true);
    }

    /** The port requests are accepted on. */
    public int port() {
        return connector.getLocalPort();
    }

    /** Stops the service (tests; the demo process is simply ended). */
    public void stop() throws Exception {
        tomcat.stop();
        tomcat.destroy();
    }
}
