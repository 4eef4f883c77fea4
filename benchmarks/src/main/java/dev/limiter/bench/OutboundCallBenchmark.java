package dev.limiter.bench;

import com.sun.net.httpserver.HttpServer;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.entry.EntryWiring;
import dev.limiter.agent.outbound.jdk.JdkHttpClientEntryPoint;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.rules.reload.RuleSetHolder;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What an {@code http-client:} rule adds to an outgoing {@code java.net.http.HttpClient} call, beside what the
 * call itself costs: {@link #decide} makes the exact calls the woven {@code send} makes
 * ({@link ClientBridge#enter} and {@link ClientBridge#exit}) with the agent's real delegate installed, on a real
 * request and response; {@link #loopbackSend} is the client's own blocking {@code send} of the same request to a
 * server on the loopback interface (no agent in it). Read the ratio of the two, and {@code gc.alloc.rate.norm}
 * (B/op) of {@link #decide} with {@code -prof gc}.
 * <ul>
 *   <li>{@code no-rules}: the delegate with no {@code http-client:} rule (the call is not looked at);</li>
 *   <li>{@code no-match}: one rule on another host;</li>
 *   <li>{@code global}: one matching, never-rejecting fixed-window rule;</li>
 *   <li>{@code host}: the same keyed on the host;</li>
 *   <li>{@code header}: the same keyed on a request header (the API key the service sends).</li>
 * </ul>
 */
@State(Scope.Thread)
public class OutboundCallBenchmark extends BenchmarkDefaults {

    @Param({"no-rules", "no-match", "global", "host", "header"})
    public String config;

    private HttpServer server;
    private HttpClient client;
    private HttpRequest request;
    private HttpResponse.BodyHandler<Void> handler;
    private HttpResponse<Void> response;
    private TrialRules trial;

    @Setup(Level.Trial)
    public void setUp() throws Exception {
        server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 50);
        server.createContext("/", exchange -> {
            exchange.sendResponseHeaders(200, -1);
            exchange.close();
        });
        server.start();
        client = HttpClient.newHttpClient();
        request = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + server.getAddress().getPort()
                + "/v1/orders/42")).header("X-Api-Key", "key-1").GET().build();
        handler = HttpResponse.BodyHandlers.discarding();
        response = client.send(request, handler);

        trial = TrialRules.open("version: 1\n" + rules(config), null);
        RuleSetHolder holder = trial.holder;
        EntryWiring wiring = new EntryWiring(holder, new ThrottledLog("dev.limiter.bench", 5_000));
        new JdkHttpClientEntryPoint().install(wiring);
        wiring.installClients();
        Object rejected = ClientBridge.enter(client, request, handler, null, false);
        if (rejected != null) {
            throw new IllegalStateException(config + ": the call was rejected: " + rejected);
        }
        ClientBridge.exit(response);
        long allowed = holder.current().rules().isEmpty() ? 0
                : holder.current().rules().get(0).stats().allowed().sum();
        if (allowed != (config.startsWith("no-") ? 0 : 1)) {
            throw new IllegalStateException(config + ": allowed " + allowed);
        }
    }

    private static String rules(String config) {
        String rule = """
                rules:
                  - id: partner
                    match: { http-client: { host: %s, path: '/v1/**' } }
                    key: %s
                    limit: 1000000000
                    window: 1s
                """;
        return switch (config) {
            case "no-rules" -> "rules: []\n";
            case "no-match" -> rule.formatted("api.partner.com", "global");
            case "global" -> rule.formatted("127.0.0.1", "global");
            case "host" -> rule.formatted("127.0.0.1", "host");
            case "header" -> rule.formatted("127.0.0.1", "header:X-Api-Key");
            default -> throw new IllegalArgumentException(config);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        ClientBridge.install(null);
        server.stop(0);
        trial.close();
    }

    /** The woven {@code send}'s check: the decision at its entry, the exit on its return. */
    @Benchmark
    public Object decide() {
        Object ours = ClientBridge.enter(client, request, handler, null, false);
        return ours != null ? ours : ClientBridge.exit(response);
    }

    /** The client's own cost: a blocking loopback call, as the woven method runs it after the check. */
    @Benchmark
    public Object loopbackSend() throws Exception {
        return client.send(request, handler);
    }
}
