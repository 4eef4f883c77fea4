package dev.limiter.it.app.webapp;

import dev.limiter.it.support.RedeployCycles;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * {@link RedeployCycles} in one embedded Tomcat 11: the exploded WAR {@code target/webapp} deployed at {@code /app}
 * and undeployed {@code cycles} times: {@code main(cycles, [rulesFile])}. The class path must add
 * {@code limiter-it-app-support} (the WAR has its own copy, which its servlets use).
 */
public final class RedeployApp {

    private RedeployApp() {
    }

    public static void main(String[] args) throws Exception {
        Path base = Files.createTempDirectory("limiter-it-redeploy");
        Files.createDirectories(base.resolve("webapps"));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(0);
        tomcat.setAddDefaultWebXmlToWebapp(false);
        Connector connector = tomcat.getConnector();
        tomcat.start();
        Path webapp = TomcatWebappApp.webappDirectory();
        RedeployCycles.run(new RedeployCycles.Container() {
            private Context context;

            @Override
            public ClassLoader deploy() {
                context = tomcat.addWebapp("/app", webapp.toString());
                return context.getLoader().getClassLoader();
            }

            @Override
            public void undeploy() throws Exception {
                tomcat.getHost().removeChild(context);
                context.destroy();
                context = null;
            }

            @Override
            public int port() {
                return connector.getLocalPort();
            }
        }, Integer.parseInt(args[0]), args.length > 1 ? Path.of(args[1]) : null);
        tomcat.stop();
        tomcat.destroy();
    }
}
