package dev.limiter.it.grpc;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.limiter.it.grpc.GrpcClient.Answer;
import dev.limiter.it.grpc.GrpcClient.Held;
import dev.limiter.it.harness.Agent;
import dev.limiter.it.harness.AttachedJmx;
import dev.limiter.it.harness.ForkedServer;
import dev.limiter.it.harness.RulesFile;
import dev.limiter.it.harness.ServerLogs;
import dev.limiter.it.harness.TestApp;
import dev.limiter.it.harness.WindowGuard;
import io.grpc.Status;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.management.MalformedObjectNameException;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The agent on a real grpc-java 1.85 server (grpc-netty-shaded, apps/grpc-netty) in a forked JVM with the built
 * agent jar, called by a real grpc-java client: {@code grpc:} rules on unary and server-streaming calls, exact
 * {@code RESOURCE_EXHAUSTED} counts with the {@code retry-after} and rate-limit trailers, keys on {@code ip} and
 * {@code metadata:NAME}, dry-run, reloads both ways, JMX counts, and {@code concurrency} permits given back when a
 * call completes or the client cancels it, never twice. One JVM serves every scenario; each owns a rule and a
 * service ({@link GrpcScenarioRules}). Runs on the JVM {@code limiter.test.jvm} names (Java 17 and 25 in CI).
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class GrpcLimiterTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(30);
    private static final Duration POLL = Duration.ofMillis(200);

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private GrpcScenarioRules current;
    private ForkedServer server;
    private GrpcClient client;
    private String jmxMarker;
    private AttachedJmx jmx;

    /** The scenarios count exactly on fixed one-hour windows: none may straddle the hour. */
    @BeforeEach
    void roomInTheWindow() {
        WindowGuard.awaitRoomInWindow(Duration.ofHours(1), Duration.ofSeconds(30));
    }

    @BeforeAll
    void startServer() {
        rules = RulesFile.create("rules.yml");
        current = GrpcScenarioRules.initial();
        rules.write(current.render(rules.nextVersion()));
        jmxMarker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(TestApp.GRPC_NETTY, "GrpcLimiterTest-server",
                List.of(AttachedJmx.markerOption(jmxMarker), Agent.option(rules.path()))));
        client = new GrpcClient(server.port());
    }

    @AfterAll
    void stopServer() throws Exception {
        if (client != null) {
            client.close();
        }
        if (jmx != null) {
            jmx.close();
        }
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    @Test
    void startupBannerNamesTheRulesFileAndTheRuleCount() {
        server.awaitOutput("limiter \\S+ started: rules \\S*rules\\.yml, " + GrpcScenarioRules.RULE_COUNT
                + " rules", Duration.ofSeconds(10));
    }

    @Test
    void onlyTheStubCallHandlersAreWoven() throws Exception {
        assertThat(client.create("it.Woven", "x").code()).isEqualTo(Status.Code.OK);
        ObjectName limiter = new ObjectName("dev.limiter:type=Limiter");
        int[] woven = new int[1];
        await("the limiter MBean").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions().until(() -> {
            woven[0] = (Integer) jmx().connection().getAttribute(limiter, "WovenTypes");
            return true;
        });
        // ServerCalls$UnaryServerCallHandler only: its streaming twin (client and bidi streaming) is woven when
        // loaded, and this service has no such method, so it never is; no servlet or mapper exists here
        assertThat(woven[0]).isEqualTo(1);
    }

    @Test
    void unaryCallsAreAdmittedUpToTheLimitThenClosedWithResourceExhaustedAndTrailers() {
        for (int i = 0; i < 3; i++) {
            Answer answer = client.create("it.Exact", "order " + i);
            assertThat(answer.code()).as("call %d: %s", i + 1, answer).isEqualTo(Status.Code.OK);
            assertThat(answer.messages()).containsExactly("created order " + i);
        }
        for (int i = 0; i < 2; i++) {
            assertRejected(client.create("it.Exact", "over"), "exact", 3600);
        }
        Answer last = client.create("it.Exact", "over");
        assertRejected(last, "exact", 3600);
        assertThat(last.trailer("x-ratelimit-limit")).isEqualTo("3");
        assertThat(last.trailer("x-ratelimit-remaining")).isEqualTo("0");
        assertThat(last.trailer("ratelimit-policy")).isEqualTo("\"exact\";q=3;w=3600");
        assertThat(client.handled("it.Exact")).as("the service ran for the admitted calls only").isEqualTo(3);
        assertThat(attribute("exact", "Allowed")).isEqualTo(3);
        assertThat(attribute("exact", "Rejected")).isEqualTo(3);
    }

    @Test
    void aServerStreamingCallIsCheckedOnceWhateverItSends() {
        for (int i = 0; i < 2; i++) {
            Answer answer = client.watch("it.Stream", 3);
            assertThat(answer.code()).as("stream %d: %s", i + 1, answer).isEqualTo(Status.Code.OK);
            assertThat(answer.messages()).containsExactly("update 1", "update 2", "update 3");
        }
        Answer third = client.watch("it.Stream", 3);
        assertRejected(third, "stream", 3600);
        assertThat(third.messages()).as("a rejected stream sends nothing").isEmpty();
        assertThat(client.handled("it.Stream")).isEqualTo(2);
        assertThat(attribute("stream", "Allowed")).isEqualTo(2);
        assertThat(attribute("stream", "Rejected")).isEqualTo(1);
    }

    @Test
    void anIpKeyCountsThePeerAndIgnoresForwardedForFromAnUntrustedPeer() {
        assertThat(client.create("it.ByIp", "a", "x-forwarded-for", "1.1.1.1").code()).isEqualTo(Status.Code.OK);
        assertThat(client.watch("it.ByIp", 1, "x-forwarded-for", "2.2.2.2").code()).isEqualTo(Status.Code.OK);
        // the peer (127.0.0.1) is not a trusted proxy: a new forwarded-for is no new key, on any method
        assertRejected(client.create("it.ByIp", "c", "x-forwarded-for", "3.3.3.3"), "by-ip", 3600);
        assertRejected(client.watch("it.ByIp", 1, "forwarded", "for=4.4.4.4"), "by-ip", 3600);
        assertThat(attribute("by-ip", "Rejected")).isEqualTo(2);
    }

    @Test
    void aMetadataKeyCountsEachValueAndMissingMetadataIsOneSharedKey() {
        assertThat(client.create("it.ByTenant", "a", "x-tenant", "alice").code()).isEqualTo(Status.Code.OK);
        assertRejected(client.create("it.ByTenant", "a", "x-tenant", "alice"), "by-tenant", 3600);
        assertThat(client.create("it.ByTenant", "b", "x-tenant", "bob").code()).as("another tenant")
                .isEqualTo(Status.Code.OK);
        assertThat(client.create("it.ByTenant", "none").code()).isEqualTo(Status.Code.OK);
        assertRejected(client.create("it.ByTenant", "none"), "by-tenant", 3600);
        assertThat(attribute("by-tenant", "Allowed")).isEqualTo(3);
        assertThat(attribute("by-tenant", "Rejected")).isEqualTo(2);
    }

    @Test
    void dryRunNeverRejectsButCountsWouldRejectUntilEnforced() {
        for (int i = 0; i < 5; i++) {
            Answer answer = client.create("it.Dry", "d");
            assertThat(answer.code()).as("call %d past a dry-run limit of 2: %s", i + 1, answer)
                    .isEqualTo(Status.Code.OK);
        }
        assertThat(attribute("dry", "WouldReject")).isEqualTo(3);
        assertThat(attribute("dry", "Rejected")).isZero();
        apply(current.withDryMode("enforce"));
        assertRejected(client.create("it.Dry", "d"), "dry", 3600);
    }

    @Test
    void aLiveReloadRaisesAndLowersTheLimit() {
        assertThat(client.create("it.Reload", "r").code()).isEqualTo(Status.Code.OK);
        assertThat(client.create("it.Reload", "r").code()).isEqualTo(Status.Code.OK);
        assertRejected(client.create("it.Reload", "r"), "reload", 3600);

        GrpcScenarioRules raised = current.withReloadLimit(50);
        rules.write(raised.render(rules.nextVersion()));
        await("limit 2 -> 50 is live").atMost(TIMEOUT).pollInterval(POLL)
                .until(() -> client.create("it.Reload", "r").code() == Status.Code.OK);
        current = raised;
        Answer admitted = client.create("it.Reload", "r");
        assertThat(admitted.code()).as(admitted.toString()).isEqualTo(Status.Code.OK);

        apply(current.withReloadLimit(1));
        Answer lowered = client.create("it.Reload", "r");
        assertRejected(lowered, "reload", 3600);
        assertThat(lowered.trailer("ratelimit-policy")).isEqualTo("\"reload\";q=1;w=3600");
    }

    @Test
    void concurrencyPermitsComeBackWhenTheClientCancelsNeverTwice() throws Exception {
        Held first = started("it.Held", "h1");
        Held second = started("it.Held", "h2");
        Answer third = client.hold("it.Held", "h3").started.get(20, TimeUnit.SECONDS);
        assertRejected(third, "held", Long.MAX_VALUE);

        first.cancel();
        server.awaitOutput("CANCELLED Hold h1", TIMEOUT);
        awaitPermits("held", 1);
        Held fourth = started("it.Held", "h4");
        second.cancel();
        fourth.cancel();
        awaitPermits("held", 2);

        // twenty clients start a call and hang up: each cancel releases once. The service's cancel handler runs
        // after the agent's release (the wrapping listener releases first), so its line says the permit is back
        for (int i = 0; i < 20; i++) {
            Held held = started("it.Held", "loop" + i);
            held.cancel();
            held.ended.get(20, TimeUnit.SECONDS);
            server.awaitOutput("(?m)^CANCELLED Hold loop" + i + "$", TIMEOUT);
        }
        awaitPermits("held", 2);

        // no permit was released twice: the limit still holds exactly 2 calls
        List<Held> open = new ArrayList<>();
        open.add(started("it.Held", "again1"));
        open.add(started("it.Held", "again2"));
        assertThat(remaining("held")).isZero();
        assertRejected(client.hold("it.Held", "again3").started.get(20, TimeUnit.SECONDS), "held", Long.MAX_VALUE);
        open.forEach(Held::cancel);
        awaitPermits("held", 2);
        assertThat(attribute("held", "Rejected")).isEqualTo(2);
    }

    @Test
    void concurrencyPermitsComeBackWhenTheCallCompletes() throws Exception {
        for (int i = 0; i < 5; i++) {
            Answer answer = client.watch("it.HeldDone", 2);
            assertThat(answer.code()).as("call %d: %s", i + 1, answer).isEqualTo(Status.Code.OK);
            assertThat(answer.messages()).hasSize(2);
            // the permit comes back at the server's onComplete, a moment after the client saw the end
            awaitPermits("held-done", 1);
        }
        assertThat(attribute("held-done", "Rejected")).isZero();
        assertThat(attribute("held-done", "Allowed")).isEqualTo(5);
    }

    @Test
    void aDeepServiceGlobMatchesNestedPackages() {
        assertThat(client.create("other.a.b.Service", "x").code()).isEqualTo(Status.Code.OK);
        assertRejected(client.create("other.a.b.Service", "x"), "other-services", 3600);
        assertThat(client.create("otherwise.Service", "x").code()).as("not under other.").isEqualTo(Status.Code.OK);
        assertThat(client.create("otherwise.Service", "x").code()).isEqualTo(Status.Code.OK);
    }

    // ---- helpers

    private Held started(String service, String tag) throws Exception {
        Held held = client.hold(service, tag);
        Answer answer = held.started.get(20, TimeUnit.SECONDS);
        assertThat(answer.code()).as("%s/Hold %s: %s", service, tag, answer).isEqualTo(Status.Code.OK);
        assertThat(answer.messages()).containsExactly("started");
        return held;
    }

    private void apply(GrpcScenarioRules next) {
        int version = rules.nextVersion();
        rules.write(next.render(version));
        String marker = GrpcScenarioRules.markerService(version);
        await("rules version " + version + " is live").atMost(TIMEOUT).pollInterval(POLL)
                .until(() -> client.create(marker, "m").code() == Status.Code.RESOURCE_EXHAUSTED);
        current = next;
    }

    private void awaitPermits(String rule, long limit) {
        await("all " + limit + " permits of " + rule + " back").atMost(TIMEOUT).pollInterval(POLL)
                .ignoreExceptions() // the MBeans register a moment after the first call
                .until(() -> remaining(rule) == limit);
    }

    private long remaining(String rule) throws Exception {
        return (Long) jmx().connection().invoke(ruleName(rule), "remaining", new Object[] {""},
                new String[] {String.class.getName()});
    }

    private long attribute(String rule, String attribute) {
        long[] value = new long[1];
        await(rule + "." + attribute + " readable").atMost(TIMEOUT).pollInterval(POLL).ignoreExceptions()
                .until(() -> {
                    value[0] = ((Number) jmx().connection().getAttribute(ruleName(rule), attribute)).longValue();
                    return true;
                });
        return value[0];
    }

    private AttachedJmx jmx() {
        if (jmx == null) {
            jmx = AttachedJmx.attach(jmxMarker);
        }
        return jmx;
    }

    private static ObjectName ruleName(String rule) {
        try {
            return new ObjectName("dev.limiter:type=Rule,name=" + rule);
        } catch (MalformedObjectNameException e) {
            throw new IllegalArgumentException(rule, e);
        }
    }

    /** RESOURCE_EXHAUSTED naming the rule, {@code retry-after} in [1, maxRetryAfter] seconds in the trailers. */
    private static void assertRejected(Answer answer, String rule, long maxRetryAfter) {
        assertThat(answer.code()).as(answer.toString()).isEqualTo(Status.Code.RESOURCE_EXHAUSTED);
        assertThat(answer.description()).as(answer.toString()).startsWith("rate limit exceeded (rule " + rule + ")");
        String retryAfter = answer.trailer("retry-after");
        assertThat(retryAfter).as(answer.toString()).isNotNull();
        assertThat(Long.parseLong(retryAfter)).as(answer.toString()).isBetween(1L, maxRetryAfter);
    }
}
