package dev.limiter.agent.http;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeyBound;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The seam's promises, held against the capabilities of every server behind it, with fakes of their getters
 * ({@link FakeServer}): one key reader, one client address with trusted proxies, one rendering of the
 * {@code response:} section, one release, and the hostile-key cases, the same for each. A new server gets a fake
 * with its capability flags in {@link #servers()}.
 */
class HttpSeamContractTest {

    private static final int REACTIVE = RequestView.NO_PRINCIPAL | RequestView.QUERY_PARAMETERS_ONLY;

    /** Every server the seam serves, by what it supplies before its handler runs. */
    static Stream<FakeServer> servers() {
        return Stream.concat(httpServers(), Stream.of(new FakeServer("grpc-java (metadata)",
                RequestView.NO_PRINCIPAL | RequestView.NO_PATH)));
    }

    /** The HTTP servers: those the gate decides and renders for. */
    static Stream<FakeServer> httpServers() {
        return Stream.of(new FakeServer("servlet container", 0), new FakeServer("Spring WebFlux", REACTIVE),
                new FakeServer("Vert.x Web", REACTIVE), new FakeServer("Quarkus REST", REACTIVE),
                new FakeServer("Micronaut", REACTIVE), new FakeServer("Helidon SE", REACTIVE));
    }

    private static final String RULES = """
            version: 1
            response:
              headers: draft
              content-type: text/plain
              body: 'slow down: ${rule}'
            client-ip:
              trusted-proxies: [10.0.0.0/8]
            rules:
              - { id: global, match: { http: { path: /keys/global } }, key: global, limit: 1000, window: 1h }
              - { id: ip, match: { http: { path: /keys/ip } }, key: ip, limit: 1000, window: 1h }
              - { id: header, match: { http: { path: /keys/header } }, key: 'header:X-Api-Key', limit: 1, window: 1h,
                  max-keys: 100 }
              - { id: param, match: { http: { path: /keys/param } }, key: 'param:user', limit: 1000, window: 1h }
              - { id: principal, match: { http: { path: /keys/principal } }, key: principal, limit: 1000, window: 1h }
              - { id: path, match: { http: { path: /keys/path/** } }, key: path, limit: 1000, window: 1h }
              - { id: path-param, match: { http: { path: '/keys/items/{id}' } }, key: 'path-param:id', limit: 1000,
                  window: 1h }
              - { id: metadata, match: { grpc: { service: acme.Orders } }, key: 'metadata:x-api-key', limit: 1000,
                  window: 1h }
              - { id: one, match: { http: { path: /one } }, key: ip, limit: 1, window: 1h }
              - { id: dry, match: { http: { path: /dry } }, key: global, limit: 1, window: 1h, mode: dry-run }
              - { id: slots, match: { http: { path: /slots } }, key: global, limit: 1, window: 1h,
                  strategy: concurrency }
            """;

    @TempDir
    Path dir;

    private RuleSetHolder holder;
    private RuleSet rules;
    private HttpGate gate;

    @BeforeEach
    void open() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        holder = RuleSetHolder.open(file);
        assertThat(holder.lastError()).isNull();
        rules = holder.current();
        gate = new HttpGate(holder, new ThrottledLog("dev.limiter.test", 0), false);
    }

    @AfterEach
    void close() {
        holder.close();
    }

    private String key(String ruleId, FakeServer server, FakeServer.Exchange request) throws Throwable {
        Rule rule = rules.rule(ruleId);
        String path = server.lacks(RequestView.NO_PATH) ? null : request.path;
        return HttpKeys.key(rule, rules, server, request, path, new PeerCache());
    }

    private static FakeServer.Exchange request() {
        FakeServer.Exchange request = new FakeServer.Exchange();
        request.path = "/keys/items/42";
        request.header("X-Api-Key", "k1");
        request.parameters.put("user", "u1");
        request.principal = "alice";
        return request;
    }

    @ParameterizedTest
    @MethodSource("servers")
    void everyKeyKindReadsTheRequestOrSaysItCannot(FakeServer server) throws Throwable {
        boolean http = !server.lacks(RequestView.NO_PATH);
        boolean user = !server.lacks(RequestView.NO_PRINCIPAL);
        FakeServer.Exchange request = request();

        assertThat(key("global", server, request)).isEqualTo(HttpKeys.MISSING);
        assertThat(key("ip", server, request)).isEqualTo("10.0.0.1");
        assertThat(key("header", server, request)).isEqualTo("k1");
        assertThat(key("metadata", server, request)).isEqualTo("k1");
        assertThat(key("param", server, request)).isEqualTo(http ? "u1" : null);
        assertThat(key("principal", server, request)).isEqualTo(user ? "alice" : null);
        assertThat(key("path", server, request)).isEqualTo(http ? "/keys/items/42" : null);
        assertThat(key("path-param", server, request)).isEqualTo(http ? "42" : null);
        if (!user) {
            assertThat(HttpKeys.missing(rules.rule("principal"), server)).contains(server.server)
                    .contains("principal").contains("on-error");
        }
    }

    @ParameterizedTest
    @MethodSource("servers")
    void aMissingValueIsTheSharedEmptyKeySoSendingNoneIsNoEscape(FakeServer server) throws Throwable {
        FakeServer.Exchange bare = new FakeServer.Exchange();

        assertThat(key("header", server, bare)).isEqualTo(HttpKeys.MISSING);
        assertThat(key("metadata", server, bare)).isEqualTo(HttpKeys.MISSING);
        if (!server.lacks(RequestView.NO_PATH)) {
            assertThat(key("param", server, bare)).isEqualTo(HttpKeys.MISSING);
            bare.refuseParameters = true; // 1,001 parameters: the client's malformed request, not our failure
            assertThat(key("param", server, bare)).isEqualTo(HttpKeys.MISSING);
        }
        if (!server.lacks(RequestView.NO_PRINCIPAL)) {
            assertThat(key("principal", server, bare)).as("no user").isEqualTo(HttpKeys.MISSING);
        }
    }

    @ParameterizedTest
    @MethodSource("servers")
    void theClientIsThePeerUnlessThePeerIsATrustedProxyThenTheRightMostUntrustedHop(FakeServer server)
            throws Throwable {
        FakeServer.Exchange direct = new FakeServer.Exchange();
        direct.peer = "203.0.113.9";
        direct.header("X-Forwarded-For", "1.2.3.4");
        assertThat(ClientAddress.of(rules.clientIp(), server, direct, new PeerCache()))
                .as("a client cannot choose its address").isEqualTo("203.0.113.9");

        FakeServer.Exchange proxied = new FakeServer.Exchange();
        proxied.peer = "10.0.0.7";
        proxied.header("X-Forwarded-For", "6.6.6.6, 1.2.3.4");
        proxied.header("X-Forwarded-For", "10.0.0.2");
        assertThat(ClientAddress.of(rules.clientIp(), server, proxied, new PeerCache())).isEqualTo("1.2.3.4");
        assertThat(key("ip", server, proxied)).isEqualTo("1.2.3.4");
    }

    @ParameterizedTest
    @MethodSource("servers")
    void anIpv6ClientIsKeyedByItsNetworkAndThePeerTextIsKeptPerThread(FakeServer server) throws Throwable {
        FakeServer.Exchange first = new FakeServer.Exchange();
        first.peer = "2001:db8:1:2::1";
        FakeServer.Exchange second = new FakeServer.Exchange();
        second.peer = "2001:db8:1:2:ffff::9";
        assertThat(key("ip", server, first)).isEqualTo(key("ip", server, second));

        PeerCache peers = new PeerCache();
        String text = peers.text(server, "192.0.2.1");
        assertThat(peers.text(server, new String("192.0.2.1"))).as("an equal peer").isSameAs(text);
    }

    @ParameterizedTest
    @MethodSource("httpServers")
    void anAdmittedRequestGetsTheRateLimitHeadersAndARejectedOneTheResponseSection(FakeServer server) {
        HttpExchange exchange = new HttpExchange(false);
        FakeServer.Exchange first = new FakeServer.Exchange();
        first.path = "/one";
        assertThat(gate.check(rules, server, first, first, exchange)).as("admitted").isNull();
        assertThat(first.responseHeaders).containsKey("RateLimit").containsKey("RateLimit-Policy");
        assertThat(first.status).isEqualTo(200);

        FakeServer.Exchange second = new FakeServer.Exchange();
        second.path = "/one";
        assertThat(gate.check(rules, server, second, second, exchange)).isSameAs(HttpServerApi.WRITTEN);
        assertThat(second.status).isEqualTo(429);
        assertThat(Long.parseLong(second.responseHeaders.get("Retry-After"))).isPositive();
        assertThat(second.body).isEqualTo("slow down: one");
        assertThat(second.contentType).isEqualTo("text/plain");
        assertThat(rules.rule("one").stats().rejected().sum()).isEqualTo(1);

        FakeServer.Exchange committed = new FakeServer.Exchange();
        committed.path = "/one";
        committed.committed = true;
        assertThat(gate.check(rules, server, committed, committed, exchange))
                .as("a committed response is left alone").isSameAs(server.unwritableRejection());
        assertThat(committed.status).isEqualTo(200);
        assertThat(rules.rule("one").stats().rejected().sum()).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("httpServers")
    void aDryRunRuleCountsWhatItWouldRejectAndRejectsNothing(FakeServer server) {
        HttpExchange exchange = new HttpExchange(false);
        for (int i = 0; i < 3; i++) {
            FakeServer.Exchange request = new FakeServer.Exchange();
            request.path = "/dry";
            assertThat(gate.check(rules, server, request, request, exchange)).isNull();
            assertThat(request.status).isEqualTo(200);
        }
        assertThat(rules.rule("dry").stats().wouldReject().sum()).isEqualTo(2);
    }

    @ParameterizedTest
    @MethodSource("httpServers")
    void aConcurrencyPermitGoesToTheRequestsEndAndComesBackOnce(FakeServer server) {
        HttpExchange exchange = new HttpExchange(false);
        FakeServer.Exchange first = new FakeServer.Exchange();
        first.path = "/slots";
        assertThat(gate.check(rules, server, first, first, exchange)).isNull();
        assertThat(first.held).as("handed to the request's end").isNotNull();
        assertThat(exchange.permits.height()).isZero();

        FakeServer.Exchange second = new FakeServer.Exchange();
        second.path = "/slots";
        assertThat(gate.check(rules, server, second, second, exchange)).as("the one slot is taken").isNotNull();

        first.held.release();
        first.held.accept("CANCEL"); // a late second signal
        FakeServer.Exchange third = new FakeServer.Exchange();
        third.path = "/slots";
        assertThat(gate.check(rules, server, third, third, exchange)).as("the slot came back").isNull();
        FakeServer.Exchange fourth = new FakeServer.Exchange();
        fourth.path = "/slots";
        assertThat(gate.check(rules, server, fourth, fourth, exchange)).as("and only once").isNotNull();
    }

    @ParameterizedTest
    @MethodSource("httpServers")
    void aHostileKeyIsBoundedStillLimitsItsClientAndNeverReachesTheResponse(FakeServer server) {
        HttpExchange exchange = new HttpExchange(false);
        String huge = "K".repeat(64 * 1024);
        String evil = "evil\r\nX-Injected: 1\u0000\u001b[31m";
        for (String value : List.of(huge, evil)) {
            FakeServer.Exchange first = new FakeServer.Exchange();
            first.path = "/keys/header";
            first.header("X-Api-Key", value);
            assertThat(gate.check(rules, server, first, first, exchange)).isNull();
            FakeServer.Exchange again = new FakeServer.Exchange();
            again.path = "/keys/header";
            again.header("X-Api-Key", new String(value.toCharArray()));
            assertThat(gate.check(rules, server, again, again, exchange)).as("the same key again").isNotNull();
            for (FakeServer.Exchange response : List.of(first, again)) {
                assertThat(response.responseHeaders.keySet()).doesNotContain("X-Injected");
                assertThat(String.join("", response.responseHeaders.values())).doesNotContain("evil")
                        .doesNotContain("KKKK").doesNotContain("\r").doesNotContain("\n");
            }
        }
        long[] out = new long[dev.limiter.core.Outcome.SIZE];
        assertThat(rules.rule("header").limiter().remaining(KeyBound.bound(huge), out))
                .as("held under the digest form").isZero();
    }

    @ParameterizedTest
    @MethodSource("httpServers")
    void aRequestNoRuleMatchesIsNotTouched(FakeServer server) {
        FakeServer.Exchange request = new FakeServer.Exchange();
        request.path = "/elsewhere";
        assertThat(gate.check(rules, server, request, request, new HttpExchange(false))).isNull();
        assertThat(request.responseHeaders).isEmpty();
    }
}
