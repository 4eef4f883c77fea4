package dev.limiter.it.app.tomcat10;

import dev.limiter.it.app.Endpoints;
import jakarta.servlet.Filter;
import jakarta.servlet.Servlet;
import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.ErrorPage;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * Embedded Tomcat 10.1 serving the shared test endpoints. {@code main([port])} (default 0: any free port) prints
 * {@code LISTENING <port>} on stdout once requests are accepted; the test harness waits for that line.
 */
public final class Tomcat10App {

    private Tomcat10App() {
    }

    public static void main(String[] args) throws Exception {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Path base = Files.createTempDirectory("limiter-it-tomcat10");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(port);
        Connector connector = tomcat.getConnector();
        Context context = tomcat.addContext("", base.toString());
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
