package outbound;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * The local "partner" the outbound test programs call: it counts the requests that reach it per first path
 * segment ({@code /reject/1} counts under {@code /reject}) and answers the first request of a segment starting
 * with {@code /busy} or ending in {@code -busy} with 429 and {@code Retry-After: 1}, every other with 200.
 */
final class PartnerServer {

    static final Map<String, AtomicInteger> HITS = new ConcurrentHashMap<>();

    private final HttpServer server;

    private PartnerServer(HttpServer server) {
        this.server = server;
    }

    /** What a test program plays against the server at {@code base}: each of its scenarios in turn. */
    interface Program {
        void play(String base, String[] scenarios) throws Exception;
    }

    /**
     * Starts the server, plays {@code program}'s {@code scenarios} against it and ends the JVM: status 0, or 1 with
     * the failure printed (a test program must not hang on the server's threads).
     */
    static void serve(String[] scenarios, Program program) throws IOException {
        PartnerServer server = start();
        try {
            program.play(server.base(), scenarios);
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        server.stop();
        System.exit(0);
    }

    static PartnerServer start() throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 200);
        server.setExecutor(Executors.newFixedThreadPool(8));
        server.createContext("/", exchange -> {
            String path = exchange.getRequestURI().getPath();
            String prefix = path.substring(0, path.indexOf('/', 1) < 0 ? path.length() : path.indexOf('/', 1));
            int count = HITS.computeIfAbsent(prefix, p -> new AtomicInteger()).incrementAndGet();
            int status = 200;
            if ((prefix.startsWith("/busy") || prefix.endsWith("-busy")) && count == 1) {
                exchange.getResponseHeaders().add("Retry-After", "1");
                status = 429;
            }
            exchange.sendResponseHeaders(status, -1);
            exchange.close();
        });
        server.start();
        return new PartnerServer(server);
    }

    String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    static int hits(String prefix) {
        AtomicInteger count = HITS.get(prefix);
        return count == null ? 0 : count.get();
    }

    void stop() {
        server.stop(0);
    }
}
