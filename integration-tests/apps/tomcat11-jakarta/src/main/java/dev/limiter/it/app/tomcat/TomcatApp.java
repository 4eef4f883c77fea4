package dev.limiter.it.app.tomcat;

import dev.limiter.it.app.Endpoints;
import dev.limiter.it.support.Threads;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.authenticator.BasicAuthenticator;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.ErrorPage;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;
import org.apache.tomcat.util.descriptor.web.LoginConfig;

/**
 * Embedded Tomcat serving the shared test endpoints. {@code main([port])} (default 0: any free port) prints
 * {@code LISTENING <port>} on stdout once requests are accepted; the test harness waits for that line.
 *
 * <p>One source for three generations: the embedding API is the same in Tomcat 9, 10.1 and 11, so the
 * tomcat10-jakarta module compiles this file as it is against Tomcat 10.1, and tomcat9-javax compiles a copy
 * generated at build time with {@code jakarta.servlet} renamed to {@code javax.servlet}.
 *
 * <p>Users for conditions on roles ({@code principal-roles}): {@code ops-user} (role {@code ops}) and
 * {@code plain-user} (no role), password {@code pw}, sent with HTTP Basic. Authentication is preemptive and no
 * path is protected: a request with credentials has its user, any other runs anonymous as before.
 *
 * <p>On Java 21+ the connector runs requests on virtual threads ({@code useVirtualThreads}: Tomcat 9.0.111, 10.1
 * and 11 all have it).
 */
public final class TomcatApp {

    private TomcatApp() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Path base = Files.createTempDirectory("limiter-it-tomcat");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(port);
        Connector connector = tomcat.getConnector();
        if (Threads.virtualAvailable()) {
            connector.setProperty("useVirtualThreads", "true");
        }
        Context context = tomcat.addContext("", base.toString());
        tomcat.addUser("ops-user", "pw");
        tomcat.addRole("ops-user", "ops");
        tomcat.addUser("plain-user", "pw");
        context.setLoginConfig(new LoginConfig("BASIC", "limiter-it", null, null));
        context.setPreemptiveAuthentication(true);
        context.getPipeline().addValve(new BasicAuthenticator());
        Endpoints.registerAll(new Endpoints.Registry() {
            @Override
            public void servlet(String name, Servlet servlet, String... mappings) {
                Tomcat.addServlet(context, name, servlet).setAsyncSupported(true);
                for (String mapping : mappings) {
                    context.addServletMappingDecoded(mapping, name);
                }
            }

            @Override
            public void filter(String name, Filter filter, String mapping) {
                FilterDef def = new FilterDef();
                def.setFilterName(name);
                def.setFilter(filter);
                def.setAsyncSupported("true");
                context.addFilterDef(def);
                FilterMap map = new FilterMap();
                map.setFilterName(name);
                map.addURLPatternDecoded(mapping);
                context.addFilterMap(map);
            }

            @Override
            public void errorPage(int status, String location) {
                ErrorPage page = new ErrorPage();
                page.setErrorCode(status);
                page.setLocation(location);
                context.addErrorPage(page);
            }
        });
        tomcat.start();
        System.out.println("LISTENING " + connector.getLocalPort());
        System.out.flush();
        tomcat.getServer().await();
    }
}
