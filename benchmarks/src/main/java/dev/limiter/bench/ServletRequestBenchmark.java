package dev.limiter.bench;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.servlet.ServletLimiter;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.reload.RuleSetHolder;
import java.io.IOException;
import org.apache.catalina.connector.Connector;
import org.apache.catalina.connector.Request;
import org.apache.catalina.connector.Response;
import org.apache.catalina.mapper.MappingData;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the agent's woven servlet entry and exit cost one request, measured without a network: the exact calls
 * the inlined advice makes ({@link LimiterBridge#servletEnter} / {@link LimiterBridge#servletExit}) with the
 * agent's real {@link ServletLimiter} installed, on Tomcat 11's own request and response objects (the
 * {@code RequestFacade} / {@code ResponseFacade} a servlet receives), for the hello-world request of
 * {@code scripts/http-overhead}: {@code GET /api/items/a} to a servlet mapped at {@code /api/*}.
 *
 * <p>Each operation first does what Tomcat and the application do for every request anyway: the mapper sets
 * the servlet path and path info as characters (so the first {@code getServletPath()} / {@code getPathInfo()}
 * of a request creates the string, as in the server), {@code recycle()} has dropped the request attributes
 * (here: the limiter's old "counted" marker), and the servlet reads its path info. The same preparation runs
 * in every configuration, so differences between {@link #config}s are the agent's, including what it makes
 * Tomcat allocate (the servlet path string: 48 B). {@code -p paths=strings} sets both parts as strings
 * instead, as a container that keeps them as strings would (Jetty): then only the agent's own allocation
 * is left.
 * <ul>
 *   <li>{@code no-delegate}: the bridge only (thread-local frame, depth guard), no limiter installed;</li>
 *   <li>{@code no-rules}: the limiter with an empty rules file;</li>
 *   <li>{@code no-match}: one rule on another path (match, but nothing to count);</li>
 *   <li>{@code headers-none}: one matching never-rejecting rule, {@code headers: none};</li>
 *   <li>{@code headers-draft}: the same with the default draft rate-limit headers;</li>
 *   <li>{@code headers-both}: draft and legacy {@code X-RateLimit-*} headers;</li>
 *   <li>{@code headers-draft-steady} / {@code headers-both-steady}: the same headers on a concurrency limit of
 *       1000 (the permit goes back at the servlet's exit), so every response tells the same remaining budget,
 *       as values repeat for a client under its limit; the values come from the rule's cache
 *       ({@code HeaderText}).</li>
 * </ul>
 * Read {@code gc.alloc.rate.norm} (B/op) with {@code -prof gc}: the agent adds nothing but the header values
 * it has not sent before. The fixed-window cases count down from 10^9, so every response there has a new
 * remaining value and pays for its string; the steady cases show the cached path.
 */
@State(Scope.Thread)
public class ServletRequestBenchmark extends BenchmarkDefaults {

    private static final char[] SERVLET_PATH = "/api".toCharArray();
    private static final char[] PATH_INFO = "/items/a".toCharArray();
    private static final String SERVLET_PATH_STRING = "/api";
    private static final String PATH_INFO_STRING = "/items/a";

    @Param({"no-delegate", "no-rules", "no-match", "headers-none", "headers-draft", "headers-both",
            "headers-draft-steady", "headers-both-steady"})
    public String config;

    /** {@code chars}: path parts as Tomcat's mapper sets them; {@code strings}: as ready strings. */
    @Param({"chars"})
    public String paths;

    private TrialRules trial;
    private RuleSetHolder holder;
    private Request request;
    private MappingData mapping;
    private Object requestFacade;
    private Object responseFacade;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        org.apache.coyote.Request coyoteRequest = new org.apache.coyote.Request();
        coyoteRequest.setMethod("GET");
        coyoteRequest.remoteAddr().setString("127.0.0.1");
        org.apache.coyote.Response coyoteResponse = new org.apache.coyote.Response();
        coyoteRequest.setResponse(coyoteResponse);
        request = new Request(new Connector(), coyoteRequest);
        Response response = new Response(coyoteResponse);
        request.setResponse(response);
        response.setRequest(request);
        mapping = request.getMappingData();
        requestFacade = request.getRequest();
        responseFacade = response.getResponse();

        String rules = rules(config);
        if (rules != null) {
            trial = TrialRules.open("version: 1\n" + rules, null);
            holder = trial.holder;
            LimiterBridge.install(new ServletLimiter(holder, new ThrottledLog("dev.limiter.bench", 5_000)));
        }
        // fail fast if the configuration does not do what its name says
        admitOne();
        boolean headers = response.getHeader("RateLimit") != null;
        if (headers != (config.startsWith("headers-") && !config.equals("headers-none"))) {
            throw new IllegalStateException(config + ": RateLimit header present = " + headers);
        }
    }

    private static String rules(String config) {
        String rule = """
                rules:
                  - id: items
                    match: { http: { path: %s } }
                    key: ip
                    limit: 1000000000
                    window: 1s
                """;
        String steady = rule.formatted("/api/items/**").replace("    window: 1s\n", "")
                .replace("    limit: 1000000000", "    strategy: concurrency\n    limit: 1000");
        return switch (config) {
            case "no-delegate" -> null;
            case "no-rules" -> "rules: []\n";
            case "no-match" -> rule.formatted("/nothing/**");
            case "headers-none" -> "response: { headers: none }\n" + rule.formatted("/api/items/**");
            case "headers-draft" -> "response: { headers: draft }\n" + rule.formatted("/api/items/**");
            case "headers-both" -> "response: { headers: both }\n" + rule.formatted("/api/items/**");
            case "headers-draft-steady" -> "response: { headers: draft }\n" + steady;
            case "headers-both-steady" -> "response: { headers: both }\n" + steady;
            default -> throw new IllegalArgumentException(config);
        };
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        LimiterBridge.install(null);
        if (trial != null) {
            trial.close();
        }
    }

    /** Requests the {@code items} rule admitted so far, or -1 when the configuration has no such rule. */
    long admitted() {
        var rule = holder == null ? null : holder.current().rule("items");
        return rule == null ? -1 : rule.stats().allowed().sum();
    }

    /** The header the response carries now, or null. */
    String responseHeader(String name) {
        return ((jakarta.servlet.http.HttpServletResponse) responseFacade).getHeader(name);
    }

    /** One request through the woven entry and exit; returns whether it was rejected (never, by design). */
    @Benchmark
    public boolean admitOne() {
        if (paths.equals("chars")) {
            mapping.wrapperPath.setChars(SERVLET_PATH, 0, SERVLET_PATH.length);
            mapping.pathInfo.setChars(PATH_INFO, 0, PATH_INFO.length);
        } else {
            mapping.wrapperPath.setString(SERVLET_PATH_STRING);
            mapping.pathInfo.setString(PATH_INFO_STRING);
        }
        request.removeAttribute(ServletLimiter.COUNTED);
        if (request.getPathInfo() == null) {
            throw new IllegalStateException("the servlet reads its path info");
        }
        boolean rejected;
        try {
            rejected = LimiterBridge.servletEnter(requestFacade, responseFacade);
        } finally {
            LimiterBridge.servletExit();
        }
        if (rejected) {
            throw new IllegalStateException("rejected: the limit is 10^9 per second");
        }
        return rejected;
    }
}
