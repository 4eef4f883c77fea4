package dev.limiter.it.app.webflux;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.RequestParam;
import org.springframework.web.bind.annotation.RestController;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

/**
 * The endpoints the WebFlux tests call. {@code /api/...} answer at once; {@code /hold/...} answers when the test
 * opens its gate ({@code /app/release}), never blocking the event loop; {@code /stream/...} streams ticks with a
 * delay between them (a client can leave mid-stream); {@code /fail/...} fails its {@code Mono}. {@code /app/...}
 * are the test's own: gate arrivals and how often the handlers ran (a rejected request must not run one).
 */
@RestController
class ApiController {

    private final AtomicLong handled = new AtomicLong();
    private final Map<String, AtomicLong> arrivals = new ConcurrentHashMap<>();
    private final Map<String, Sinks.One<String>> gates = new ConcurrentHashMap<>();

    @GetMapping("/api/hello")
    String hello() {
        handled.incrementAndGet();
        return "hello";
    }

    @GetMapping("/api/items/{id}")
    Mono<String> item(@PathVariable("id") String id) {
        handled.incrementAndGet();
        return Mono.just("item " + id);
    }

    @GetMapping("/api/users/{user}")
    String user(@PathVariable("user") String user) {
        handled.incrementAndGet();
        return "user " + user;
    }

    @GetMapping("/hold/{name}")
    Mono<String> hold(@PathVariable("name") String name, @RequestParam("gate") String gate) {
        handled.incrementAndGet();
        arrivals.computeIfAbsent(gate, g -> new AtomicLong()).incrementAndGet();
        return gate(gate).asMono().map(opened -> "held " + name);
    }

    @GetMapping(path = "/stream/{name}", produces = MediaType.TEXT_EVENT_STREAM_VALUE)
    Flux<String> stream(@PathVariable("name") String name, @RequestParam(name = "n", defaultValue = "100") int n,
            @RequestParam(name = "ms", defaultValue = "100") long ms) {
        handled.incrementAndGet();
        // delayElements, not interval: interval fails a subscriber that is slow to request (backpressure)
        return Flux.range(0, n).delayElements(Duration.ofMillis(ms)).map(i -> "tick " + i);
    }

    @GetMapping("/fail/{name}")
    Mono<String> fail(@PathVariable("name") String name) {
        handled.incrementAndGet();
        return Mono.error(new IllegalStateException("failing on purpose: " + name));
    }

    @GetMapping("/app/handled")
    String handled() {
        return Long.toString(handled.get());
    }

    @GetMapping("/app/gate")
    String arrivals(@RequestParam("name") String name) {
        AtomicLong count = arrivals.get(name);
        return Long.toString(count == null ? 0 : count.get());
    }

    @GetMapping("/app/release")
    String release(@RequestParam("name") String name) {
        gate(name).tryEmitValue("open");
        return "released " + name;
    }

    private Sinks.One<String> gate(String name) {
        return gates.computeIfAbsent(name, g -> Sinks.one());
    }
}
