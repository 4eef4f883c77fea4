package dev.limiter.it.harness;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The allowed path allocates nothing for an existing key on a real server with the built agent: the same
 * request measured with a matching rule in force and without it (switched by reloads), on the server's request
 * threads, read over JMX ({@link ThreadAllocation#addedByRule}). {@code headers: none}: rate-limit header values
 * change with every request and are formatted then (docs/overhead.md). One subclass per stack.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class AbstractRuleAllocationTest {

    private static final String HEADER = "version: 1\nresponse:\n  headers: none\n";

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private RulesFile rules;
    private ForkedServer server;
    private AttachedJmx jmx;

    /** The server under test. */
    protected abstract TestApp app();

    /** The server's threads that run requests (its event loops, its workers). */
    protected abstract Predicate<String> requestThreads();

    /** A rule entry (indented by two spaces) with {@code key}, a limit never reached, matching {@link #call}. */
    protected abstract String rule(String key);

    /** One request the rule of {@code key} matches, asserting it was served. */
    protected abstract void call(String key);

    /**
     * The most a rule may seem to add per call: the counters of a server's own per-call work vary by some bytes
     * per call between rounds (measured: WebFlux and Quarkus within +-10, gRPC within +-35 over 2 000 calls), so
     * the bound sits above that noise and below what a per-call key string or wrapper object (24 bytes and more)
     * would add on every call.
     */
    protected double maxAddedBytes() {
        return 24;
    }

    /** Called once the server listens (a client to connect). */
    protected void started(ForkedServer server) {
    }

    /** Called before the server stops. */
    protected void stopping() throws Exception {
    }

    @BeforeAll
    void startServer() {
        rules = RulesFile.create("rules.yml");
        rules.write(HEADER + "rules: []\n");
        String marker = AttachedJmx.newMarker();
        server = servers.track(ForkedServer.start(app(), getClass().getSimpleName() + "-server",
                List.of(AttachedJmx.markerOption(marker), Agent.option(rules.path()))));
        jmx = AttachedJmx.attach(marker);
        started(server);
    }

    @AfterAll
    void stopServer() throws Exception {
        stopping();
        if (jmx != null) {
            jmx.close();
        }
        if (server != null) {
            server.close();
        }
        rules.delete();
    }

    @ParameterizedTest
    @ValueSource(strings = {"global", "ip"})
    void anAllowedCallAllocatesNothingForAnExistingKey(String key) {
        LiveRules live = new LiveRules(rules, jmx);
        ThreadAllocation threads = new ThreadAllocation(jmx.connection(), requestThreads());

        double added = threads.addedByRule(() -> call(key), () -> live.apply(HEADER, rule(key)),
                () -> live.apply(HEADER, ""), 2000, 2000, 5);

        System.out.printf("%s, key %s: %.1f bytes per call added by the rule%n", app(), key, added);
        assertThat(added).as("bytes per call a %s-keyed rule adds on %s", key, app())
                .isLessThanOrEqualTo(maxAddedBytes());
    }

    protected ForkedServer server() {
        return server;
    }
}
