package dev.limiter.agent.metrics;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.limiter.agent.threads.DaemonThreads;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

/**
 * {@code GET /metrics} on the JDK's own HTTP server ({@code com.sun.net.httpserver}): no library in the agent.
 *
 * <p>A slow or hostile scraper must not hurt the application, so everything it can occupy is ours and bounded:
 * {@value #THREADS} daemon threads and a queue of {@value #QUEUE} requests; beyond that the server's own
 * dispatcher thread serves the request itself, so it stops accepting until one is done and further connections
 * wait in the kernel's backlog of {@value #BACKLOG}. (Dropping a request instead would leak its socket: the
 * JDK's exchange cannot be closed from outside.) The response is built from the rules in force (a few hundred
 * bytes per rule); no request body is read (the JDK drains at most 64 KiB of one before it closes the
 * connection). The worst a scraper can do is stall other scrapes; the application's threads and its request path
 * never wait on this endpoint. {@code HEAD} is answered with the headers, other methods with 405, other paths
 * with 404.
 */
final class PrometheusEndpoint implements AutoCloseable {

    static final String PATH = "/metrics";
    static final int THREADS = 2;
    static final int QUEUE = 16;
    /** The listen backlog: connections the kernel holds before we accept them. */
    static final int BACKLOG = 16;

    private final HttpServer server;
    private final ThreadPoolExecutor executor;

    private PrometheusEndpoint(HttpServer server, ThreadPoolExecutor executor) {
        this.server = server;
        this.executor = executor;
    }

    /**
     * Binds {@code host:port} and serves {@code metrics}. Call from a daemon thread: the JDK's dispatcher thread
     * inherits it, and a non-daemon one would keep the application's JVM alive.
     *
     * @throws IOException if the address cannot be bound (taken, not local, no permission)
     */
    static PrometheusEndpoint open(String host, int port, LimiterMetrics metrics) throws IOException {
        HttpServer server = HttpServer.create(new InetSocketAddress(host, port), BACKLOG);
        ThreadPoolExecutor executor = new ThreadPoolExecutor(THREADS, THREADS, 60, TimeUnit.SECONDS,
                new ArrayBlockingQueue<>(QUEUE), DaemonThreads.numbered("limiter-metrics-http-"), new ThreadPoolExecutor.CallerRunsPolicy());
        executor.allowCoreThreadTimeOut(true);
        server.setExecutor(executor);
        server.createContext("/", new Handler(metrics));
        server.start();
        return new PrometheusEndpoint(server, executor);
    }

    /** The bound address (the real port when 0 was asked for). */
    InetSocketAddress address() {
        return server.getAddress();
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private static final class Handler implements HttpHandler {

        private final LimiterMetrics metrics;

        Handler(LimiterMetrics metrics) {
            this.metrics = metrics;
        }

        @Override
        public void handle(HttpExchange exchange) throws IOException {
            try {
                String method = exchange.getRequestMethod();
                boolean head = "HEAD".equals(method);
                if (!PATH.equals(exchange.getRequestURI().getPath())) {
                    text(exchange, 404, "not found: the metrics are at " + PATH + "\n", head);
                    return;
                }
                if (!head && !"GET".equals(method)) {
                    exchange.getResponseHeaders().set("Allow", "GET, HEAD");
                    text(exchange, 405, "method not allowed: GET or HEAD\n", false);
                    return;
                }
                ExpositionFormat format = ExpositionFormat.forAccept(exchange.getRequestHeaders().getFirst("Accept"));
                byte[] body;
                try {
                    body = metrics.render(format).getBytes(StandardCharsets.UTF_8);
                } catch (RuntimeException e) {
                    text(exchange, 500, "cannot read the limiter's metrics: " + e + "\n", head);
                    return;
                }
                send(exchange, 200, format.contentType(), body, head);
            } finally {
                exchange.close();
            }
        }

        private static void text(HttpExchange exchange, int status, String text, boolean head) throws IOException {
            send(exchange, status, "text/plain; charset=utf-8", text.getBytes(StandardCharsets.UTF_8), head);
        }

        private static void send(HttpExchange exchange, int status, String type, byte[] body, boolean head)
                throws IOException {
            exchange.getResponseHeaders().set("Content-Type", type);
            if (head) {
                exchange.sendResponseHeaders(status, -1);
                return;
            }
            exchange.sendResponseHeaders(status, body.length);
            try (OutputStream out = exchange.getResponseBody()) {
                out.write(body);
            }
        }
    }
}
