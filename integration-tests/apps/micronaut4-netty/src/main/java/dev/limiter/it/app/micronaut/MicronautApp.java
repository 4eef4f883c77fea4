package dev.limiter.it.app.micronaut;

import io.micronaut.context.ApplicationContext;
import io.micronaut.runtime.Micronaut;
import io.micronaut.runtime.server.EmbeddedServer;
import java.util.Map;

/**
 * A Micronaut 4 application on its Netty HTTP server (no servlet API on the class path). {@code main([port])}
 * (default 0: any free port) prints {@code LISTENING <port>} once the server accepts requests.
 */
public class MicronautApp {

    public static void main(String[] args) {
        String port = args.length > 0 ? args[0] : "0";
        ApplicationContext context = Micronaut.build(args)
                .mainClass(MicronautApp.class)
                .properties(Map.of(
                        "micronaut.server.port", "0".equals(port) ? "-1" : port, // -1: a random free port
                        "micronaut.server.host", "127.0.0.1"))
                .banner(false)
                .start();
        System.out.println("LISTENING " + context.getBean(EmbeddedServer.class).getPort());
        System.out.flush();
    }
}
