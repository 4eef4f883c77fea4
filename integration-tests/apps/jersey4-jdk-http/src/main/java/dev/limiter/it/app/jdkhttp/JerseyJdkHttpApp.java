package dev.limiter.it.app.jdkhttp;

import com.sun.net.httpserver.HttpServer;
import dev.limiter.it.jaxrs.RestApplication;
import dev.limiter.it.support.Threads;
import java.net.URI;
import org.glassfish.jersey.jdkhttp.JdkHttpServerFactory;
import org.glassfish.jersey.server.ResourceConfig;

/**
 * Jersey on the JDK's own HTTP server ({@code com.sun.net.httpserver}): a JAX-RS runtime with no servlet container
 * at all, so the agent has no HTTP request in flight to take {@code ip}, {@code header:} or {@code path} keys from
 * ({@code global} and {@code arg:N} still work). Serves {@link RestApplication} at {@code /rest}.
 * {@code main([port])} (default 0: any free port) prints {@code LISTENING <port>} once requests are accepted.
 * On Java 21+ requests run on virtual threads (one per exchange).
 */
public final class JerseyJdkHttpApp {

    private JerseyJdkHttpApp() {
    }

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        // 0.0.0.0 like the other servers; the tests call 127.0.0.1
        URI base = URI.create("http://0.0.0.0:" + port + "/rest/");
        HttpServer server = JdkHttpServerFactory.createHttpServer(base,
                ResourceConfig.forApplication(new RestApplication()), false);
        if (Threads.virtualAvailable()) {
            server.setExecutor(Threads.virtualPerTask());
        }
        server.start();
        System.out.println("LISTENING " + server.getAddress().getPort());
        System.out.flush();
    }
}
