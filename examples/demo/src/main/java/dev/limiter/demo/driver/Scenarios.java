package dev.limiter.demo.driver;

import java.util.List;

/**
 * The demo's traffic: for each rule of {@code examples/rules.yml}, some clients within their limit and some
 * over it, plus a spoofer and a crowd of parallel slow requests.
 *
 * <p>The driver connects from 127.0.0.1, which the rules trust as a proxy, so each request carries the
 * simulated client in {@code X-Forwarded-For} as a proxy would append it. The spoofer writes a new fake address
 * on the left of that header each time; the limiter reads from the right and is not fooled.
 */
final class Scenarios {

    static final String XFF = "X-Forwarded-For";

    private Scenarios() {
    }

    static List<Scenario> all() {
        return List.of(
                new Scenario("orders, polite client 203.0.113.10", "5/s, within 10/s per ip: all allowed", 1, 5,
                        n -> new DemoRequest("/api/orders?sku=A-1", XFF, "203.0.113.10")),
                new Scenario("orders, greedy client 203.0.113.20", "40/s against 10/s per ip: at most ~10/s allowed", 1,
                        40, n -> new DemoRequest("/api/orders?sku=B-2", XFF, "203.0.113.20")),
                new Scenario("orders, spoofer 203.0.113.30", "40/s, a new fake X-Forwarded-For each time:"
                        + " still one client, at most ~10/s", 1, 40,
                        n -> new DemoRequest("/api/orders?sku=C-3", XFF,
                                "198.51.100." + (n % 250 + 1) + ", 203.0.113.30")),
                new Scenario("convert, 4 clients (@Limit wait)", "24/s through the partner client's @Limit of"
                        + " 20/s, onLimit wait: calls wait their turn (<= 250 ms), few or none get no rate", 4, 6,
                        n -> new DemoRequest("/api/convert?to=EUR", XFF, "203.0.113.90")),
                new Scenario("shipping, 3 clients (http-client wait)", "12/s of partner calls against the partner's"
                        + " 10/s: the service's calls wait their turn (<= 500 ms), few or none get no quote", 3, 4,
                        n -> new DemoRequest("/api/shipping?zip=10115", XFF, "203.0.113.91")),
                new Scenario("search, X-Api-Key free-tier", "35/s against 20/s and 300/min per key: ~20/s"
                        + " allowed, then none once the minute's 300 are spent", 1, 35,
                        n -> new DemoRequest("/api/search?q=shoes", "X-Api-Key", "free-tier",
                                XFF, "203.0.113.40")),
                new Scenario("search, X-Api-Key team-a", "10/s, within its own 20/s and 300/min", 1, 10,
                        n -> new DemoRequest("/api/search?q=boots", "X-Api-Key", "team-a", XFF, "203.0.113.40")),
                new Scenario("search, X-Api-Key team-gold", "35/s, within the gold plan's 50/s: all allowed", 1, 35,
                        n -> new DemoRequest("/api/search?q=hats", "X-Api-Key", "team-gold", XFF, "203.0.113.41")),
                new Scenario("search, X-Api-Key monitoring", "5/s, unlimited key", 1, 5,
                        n -> new DemoRequest("/api/search?q=ping", "X-Api-Key", "monitoring", XFF, "203.0.113.42")),
                new Scenario("search, health probe", "2/s with X-Health-Check: true: exempt, counted nowhere", 1,
                        2, n -> new DemoRequest("/api/search?q=health", "X-Health-Check", "true", XFF,
                                "203.0.113.43")),
                new Scenario("export, ?user=alice", "1/s, within 2/s per user", 1, 1,
                        n -> new DemoRequest("/api/export?user=alice", XFF, "203.0.113.50")),
                new Scenario("export, ?user=bob", "8/s, drained at 2/s per user: at most ~2/s allowed", 1, 8,
                        n -> new DemoRequest("/api/export?user=bob", XFF, "203.0.113.51")),
                new Scenario("catalog (JAX-RS), sku 42", "15/s on one item, 5/s per item: at most ~5/s allowed", 1, 15,
                        n -> new DemoRequest("/rest/catalog/42", XFF, "203.0.113.60")),
                new Scenario("catalog (JAX-RS), sku 7", "2/s on another item: all allowed", 1, 2,
                        n -> new DemoRequest("/rest/catalog/7", XFF, "203.0.113.61")),
                new Scenario("report (slow), 6 clients", "2/s each, 0.4 s per report, 3 at once: some 429", 6, 2,
                        n -> new DemoRequest("/api/report", XFF, "203.0.113.70")),
                new Scenario("user pages, /api/users/17/profile", "8/s against 8 per 2s: at most ~4/s allowed", 1, 8,
                        n -> new DemoRequest("/api/users/17/profile", XFF, "203.0.113.80")),
                new Scenario("user pages, /api/users/5/profile", "2/s, within 8 per 2s", 1, 2,
                        n -> new DemoRequest("/api/users/5/profile", XFF, "203.0.113.81")));
    }
}
