package dev.limiter.it.app.jetty12;

import dev.limiter.it.support.RedeployCycles;
import java.nio.file.Path;
import org.eclipse.jetty.ee10.webapp.WebAppContext;
import org.eclipse.jetty.server.Handler;
import org.eclipse.jetty.server.Server;
import org.eclipse.jetty.server.ServerConnector;

/**
 * {@link RedeployCycles} in one embedded Jetty 12 (ee10): an exploded WAR deployed at {@code /app} as a
 * {@code WebAppContext} (its own class loader) and undeployed {@code cycles} times:
 * {@code main(cycles, webappDirectory, [rulesFile])}. The tests pass the tomcat11-webapp module's
 * {@code target/webapp}, the same application.
 */
public final class JettyRedeployApp {

    private JettyRedeployApp() {
    }

    public static void main(String[] args) throws Exception {
        Server server = new Server();
        ServerConnector connector = new ServerConnector(server);
        connector.setPort(0);
        server.addConnector(connector);
        Handler.Sequence contexts = new Handler.Sequence();
        server.setHandler(contexts);
        server.start();
        String webapp = args[1];
        RedeployCycles.run(new RedeployCycles.Container() {
            private WebAppContext context;

            @Override
            public ClassLoader deploy() throws Exception {
                context = new WebAppContext(webapp, "/app");
                contexts.addHandler(context);
                context.start();
                return context.getClassLoader();
            }

            @Override
            public void undeploy() throws Exception {
                context.stop();
                contexts.removeHandler(context);
                context.destroy();
                context = null;
            }

            @Override
            public int port() {
                return connector.getLocalPort();
            }
        }, Integer.parseInt(args[0]), args.length > 2 ? Path.of(args[2]) : null);
        server.stop();
    }
}
