package dev.limiter.bench.overload;

import java.nio.file.Files;
import java.nio.file.Path;
import org.apache.catalina.Context;
import org.apache.catalina.startup.Tomcat;
import org.apache.tomcat.util.descriptor.web.FilterDef;
import org.apache.tomcat.util.descriptor.web.FilterMap;

/**
 * The server under overload: embedded Tomcat 11 on platform threads (its default pool of 200), serving
 * {@code GET /work} from a {@link PooledWork} pool. {@code main(pool, workMillis, netflix|none)} prints
 * {@code LISTENING <port>} once it accepts requests. Limited by the agent's rules (the agent is given on the
 * command line) or by {@link NetflixLimitFilter} in front of the servlet, never both.
 */
public final class OverloadServer {

    private OverloadServer() {
    }

    public static void main(String[] args) throws Exception {
        int pool = Integer.parseInt(args[0]);
        long workMillis = Long.parseLong(args[1]);
        boolean netflix = args.length > 2 && args[2].equals("netflix");
        Path base = Files.createTempDirectory("limiter-overload");
        Tomcat tomcat = new Tomcat();
        tomcat.setBaseDir(base.toString());
        tomcat.setPort(0);
        tomcat.getConnector().setProperty("maxThreads", "200");
        Context context = tomcat.addContext("", base.toString());
        Tomcat.addServlet(context, "work", new PooledWork(pool, workMillis));
        context.addServletMappingDecoded("/work", "work");
        if (netflix) {
            FilterDef def = new FilterDef();
            def.setFilterName("concurrency-limit");
            def.setFilter(new NetflixLimitFilter());
            context.addFilterDef(def);
            FilterMap map = new FilterMap();
            map.setFilterName("concurrency-limit");
            map.addURLPatternDecoded("/work");
            context.addFilterMap(map);
        }
        tomcat.start();
        System.out.println("LISTENING " + tomcat.getConnector().getLocalPort());
        System.out.flush();
        tomcat.getServer().await();
    }
}
