package dev.limiter.it.app.webapp;

import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;

/**
 * Embedded Tomcat 11 deploying the exploded WAR {@code target/webapp} next to this class's {@code target/classes}:
 * the shared servlets are in its {@code WEB-INF/lib} and named in its {@code web.xml}, so Tomcat's webapp class
 * loader (child-first, one per context) loads and instantiates them. This launcher's own class path has Tomcat
 * only, which {@link #main} checks, so the agent's woven code is proven to run in classes the system class loader
 * cannot see. {@code main([port])} (default 0) prints {@code SERVLETS LOADED BY <loader class>} and then
 * {@code LISTENING <port>}. From Java 21 the connector runs requests on virtual threads.
 */
public final class TomcatWebappApp {

    private static final String SERVLET = "dev.limiter.it.app.ApiServlet";
    private static final int VIRTUAL_THREADS_SINCE = 21;

    private TomcatWebappApp() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Path webapp = webappDirectory();
        if (TomcatWebappApp.class.getClassLoader().getResource(SERVLET.replace('.', '/') + ".class") != null) {
            throw new IllegalStateException(SERVLET + " is on the launcher's class path: it must be in the WAR only");
        }
        Path base = Files.createTempDirectory("limiter-it-tomcat-webapp");
        Files.createDirectories(base.resolve("webapps"));
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(port);
        Connector connector = tomcat.getConnector();
        if (Runtime.version().feature() >= VIRTUAL_THREADS_SINCE) {
            connector.setProperty("useVirtualThreads", "true");
        }
        // no default servlet / JSP servlet: the WAR's web.xml is the whole application, like the other servers
        tomcat.setAddDefaultWebXmlToWebapp(false);
        Context context = tomcat.addWebapp("", webapp.toString());
        tomcat.start();
        Class<?> servlet = Class.forName(SERVLET, false, context.getLoader().getClassLoader());
        System.out.println("SERVLETS LOADED BY " + servlet.getClassLoader().getClass().getName());
        System.out.println("LISTENING " + connector.getLocalPort());
        System.out.flush();
        tomcat.getServer().await();
    }

    /** {@code target/webapp}, the sibling of the {@code target/classes} this class was loaded from. */
    static Path webappDirectory() throws URISyntaxException {
        Path classes = Path.of(TomcatWebappApp.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        Path webapp = classes.resolveSibling("webapp");
        if (!Files.isRegularFile(webapp.resolve("WEB-INF/web.xml"))) {
            throw new IllegalStateException(webapp + " is not an exploded WAR: build the module (mvn package)");
        }
        return webapp;
    }
}
