package dev.limiter.it.app.vertx;

import io.vertx.core.Promise;
import io.vertx.core.Vertx;
import io.vertx.core.http.HttpServer;
import io.vertx.ext.web.Router;
import io.vertx.ext.web.RoutingContext;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A plain Vert.x Web 5 application (no Quarkus, no verticle, no servlet API): one {@code Router} as the HTTP
 * server's request handler, serving the paths of the reactive scenario contract. {@code /api/...} answer at once;
 * {@code /hold/{name}?gate=G} answers when the test opens gate G ({@code /app/release}), never blocking the event
 * loop (a client may hang up before that); {@code /fail/{name}} throws, and Vert.x Web's failure handling answers
 * 500. {@code /app/...} are the test's own: gate arrivals and how often the handlers ran (a rejected request must
 * not run one). {@code main([port])} (default 0) prints {@code LISTENING <port>} once the server accepts requests.
 */
public final class Vertx5App {

    private static final AtomicLong HANDLED = new AtomicLong();
    private static final Map<String, AtomicLong> ARRIVALS = new ConcurrentHashMap<>();
    private static final Map<String, Promise<Void>> GATES = new ConcurrentHashMap<>();

    private Vertx5App() {
    }

    public static void main(String[] args) {
        int port = args.length > 0 ? Integer.parseInt(args[0]) : 0;
        Vertx vertx = Vertx.vertx();
        HttpServer server = vertx.createHttpServer().requestHandler(router(vertx)).listen(port).await();
        System.out.println("LISTENING " + server.actualPort());
        System.out.flush();
    }

    static Router router(Vertx vertx) {
        Router router = Router.router(vertx);
        router.get("/api/hello").handler(ctx -> answer(ctx, "hello"));
        router.route("/api/items/:id").handler(ctx -> answer(ctx, "item " + ctx.pathParam("id")));
        router.get("/api/users/:user").handler(ctx -> answer(ctx, "user " + ctx.pathParam("user")));
        router.get("/hold/:name").handler(Vertx5App::hold);
        router.get("/fail/:name").handler(ctx -> {
            HANDLED.incrementAndGet();
            throw new IllegalStateException("failing on purpose: " + ctx.pathParam("name"));
        });
        router.get("/app/handled").handler(ctx -> ctx.end(Long.toString(HANDLED.get())));
        router.get("/app/gate").handler(ctx -> {
            AtomicLong count = ARRIVALS.get(ctx.queryParams().get("name"));
            ctx.end(Long.toString(count == null ? 0 : count.get()));
        });
        router.get("/app/release").handler(ctx -> {
            String name = ctx.queryParams().get("name");
            gate(name).tryComplete();
            ctx.end("released " + name);
        });
        return router;
    }

    private static void answer(RoutingContext ctx, String body) {
        HANDLED.incrementAndGet();
        ctx.end(body);
    }

    /** Answers once the test opens the gate; the client may have hung up by then (nothing is written then). */
    private static void hold(RoutingContext ctx) {
        HANDLED.incrementAndGet();
        String gate = ctx.queryParams().get("gate");
        ARRIVALS.computeIfAbsent(gate, g -> new AtomicLong()).incrementAndGet();
        String name = ctx.pathParam("name");
        gate(gate).future().onComplete(opened -> {
            if (!ctx.response().closed() && !ctx.response().ended()) {
                ctx.end("held " + name);
            }
        });
    }

    private static Promise<Void> gate(String name) {
        return GATES.computeIfAbsent(name, g -> Promise.promise());
    }
}
