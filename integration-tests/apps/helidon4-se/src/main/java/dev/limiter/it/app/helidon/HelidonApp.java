package dev.limiter.it.app.helidon;

import dev.limiter.it.support.Gate;
import dev.limiter.it.support.Threads;
import io.helidon.webserver.WebServer;
import io.helidon.webserver.http.HttpRouting;
import io.helidon.webserver.http.ServerRequest;
import io.helidon.webserver.http.ServerResponse;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A Helidon SE 4 WebServer (HTTP/1.1, and HTTP/2 by h2c upgrade) with the endpoints the reactive HTTP contract
 * calls. {@code /api/...} answer at once (a POST reads its body); {@code /hold/...} and {@code /h2/hold/...} block its request's virtual
 * thread at a named gate until the test opens it ({@code /app/release}); {@code /fail/...} throws (Helidon answers
 * 500). {@code /app/...} are the test's own: gate arrivals, how often the handlers ran (a rejected request must not
 * run one), and the kind of thread a handler runs on. {@code main([port])} (default 0) prints
 * {@code LISTENING <port>} once the server accepts requests.
 */
public final class HelidonApp {

    private static final AtomicLong HANDLED = new AtomicLong();
    private static final long GATE_TIMEOUT_MILLIS = 120_000;

    private HelidonApp() {
    }

    /**
     * What JMX clients send (the tests read the limiter's MBeans remotely): Helidon's deserialization filter rejects
     * every class not allowed, JMX's arguments included, unless a pattern allows them.
     */
    private static final String JMX_SERIAL_FILTER = "java.**;javax.management.**";

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        if (System.getProperty("helidon.serialFilter.pattern") == null) {
            System.setProperty("helidon.serialFilter.pattern", JMX_SERIAL_FILTER);
        }
        WebServer server = WebServer.builder()
                .port(port)
                .routing(HelidonApp::routing)
                .build()
                .start();
        System.out.println("LISTENING " + server.port());
        System.out.flush();
    }

    static void routing(HttpRouting.Builder routing) {
        routing.get("/api/hello", (req, res) -> handled(res, "hello"))
                .get("/api/items/{id}", (req, res) -> handled(res, "item " + req.path().pathParameters().get("id")))
                .post("/api/items/{id}", (req, res) -> {
                    String body = req.content().as(String.class);
                    handled(res, "item " + req.path().pathParameters().get("id") + " " + body.length());
                })
                .get("/api/users/{user}", (req, res) -> handled(res, "user " + req.path().pathParameters().get("user")))
                .get("/hold/{name}", HelidonApp::hold)
                .get("/h2/hold/{name}", HelidonApp::hold)
                .get("/fail/{name}", (req, res) -> {
                    HANDLED.incrementAndGet();
                    throw new IllegalStateException("failing on purpose: " + req.path().pathParameters().get("name"));
                })
                .get("/app/handled", (req, res) -> res.send(Long.toString(HANDLED.get())))
                .get("/app/gate", (req, res) -> res.send(Integer.toString(Gate.named(req.query().get("name")).arrived())))
                .get("/app/release", (req, res) -> {
                    String name = req.query().get("name");
                    Gate.named(name).open();
                    res.send("released " + name);
                })
                .get("/app/runtime", (req, res) -> res.send(Threads.runtime()));
    }

    /** Blocks this request's thread until the test opens the gate; then answers (to a client that may be gone). */
    private static void hold(ServerRequest req, ServerResponse res) {
        HANDLED.incrementAndGet();
        String name = req.path().pathParameters().get("name");
        boolean opened = Gate.named(req.query().get("gate")).pass(GATE_TIMEOUT_MILLIS);
        res.send(("held " + name + (opened ? "" : " (timed out)")).getBytes(StandardCharsets.UTF_8));
    }

    private static void handled(ServerResponse res, String body) {
        HANDLED.incrementAndGet();
        res.send(body);
    }
}
