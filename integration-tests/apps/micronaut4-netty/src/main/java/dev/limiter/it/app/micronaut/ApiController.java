package dev.limiter.it.app.micronaut;

import io.micronaut.http.MediaType;
import io.micronaut.http.annotation.Controller;
import io.micronaut.http.annotation.Get;
import io.micronaut.http.annotation.PathVariable;
import io.micronaut.http.annotation.Produces;
import io.micronaut.http.annotation.QueryValue;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import reactor.core.publisher.Flux;

/**
 * The endpoints the Micronaut tests call, in the shape of the WebFlux and Quarkus scenario apps. {@code /api/...}
 * answer at once; {@code /hold/...} answers when the test opens its gate ({@code /app/release}), never blocking
 * the event loop (a pending {@link CompletableFuture}); {@code /stream/...} streams ticks with a delay between them
 * (a client can leave mid-stream); {@code /fail/...} throws (Micronaut answers 500).
 * {@code /app/...} are the test's own: gate arrivals and how often the handlers ran (a rejected request must not
 * run one).
 */
@Controller
@Produces(MediaType.TEXT_PLAIN)
public class ApiController {

    private final AtomicLong handled = new AtomicLong();
    private final Map<String, AtomicLong> arrivals = new ConcurrentHashMap<>();
    private final Map<String, CompletableFuture<String>> gates = new ConcurrentHashMap<>();

    @Get("/api/hello")
    public String hello() {
        handled.incrementAndGet();
        return "hello";
    }

    @Get("/api/items/{id}")
    public String item(@PathVariable("id") String id) {
        handled.incrementAndGet();
        return "item " + id;
    }

    @Get("/api/users/{user}")
    public String user(@PathVariable("user") String user) {
        handled.incrementAndGet();
        return "user " + user;
    }

    @Get("/hold/{name}")
    public CompletableFuture<String> hold(@PathVariable("name") String name, @QueryValue("gate") String gate) {
        handled.incrementAndGet();
        arrivals.computeIfAbsent(gate, g -> new AtomicLong()).incrementAndGet();
        return gate(gate).thenApply(opened -> "held " + name);
    }

    @Get(value = "/stream/{name}", produces = MediaType.TEXT_EVENT_STREAM)
    public Flux<String> stream(@PathVariable("name") String name,
            @QueryValue(value = "n", defaultValue = "100") int n, @QueryValue(value = "ms", defaultValue = "100") long ms) {
        handled.incrementAndGet();
        return Flux.range(0, n).delayElements(Duration.ofMillis(ms)).map(i -> "tick " + i);
    }

    @Get("/fail/{name}")
    public String fail(@PathVariable("name") String name) {
        handled.incrementAndGet();
        throw new IllegalStateException("failing on purpose: " + name);
    }

    @Get("/app/handled")
    public String handled() {
        return Long.toString(handled.get());
    }

    @Get("/app/gate")
    public String arrivals(@QueryValue("name") String name) {
        AtomicLong count = arrivals.get(name);
        return Long.toString(count == null ? 0 : count.get());
    }

    @Get("/app/release")
    public String release(@QueryValue("name") String name) {
        gate(name).complete("open");
        return "released " + name;
    }

    private CompletableFuture<String> gate(String name) {
        return gates.computeIfAbsent(name, g -> new CompletableFuture<>());
    }
}
