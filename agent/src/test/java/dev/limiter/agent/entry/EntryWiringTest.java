package dev.limiter.agent.entry;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.registry.EntryPoints;
import dev.limiter.bootstrap.ClientBridge;
import dev.limiter.rules.reload.RuleSetHolder;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The clients' registry reaches the client bridge only once every client's kind has joined it: installed at the
 * first kind, a call made meanwhile (the application calls while the rules thread installs the entry points) found
 * its client's kind missing, and that answer was kept for the class, so every later call of that client ran
 * unchecked.
 */
class EntryWiringTest {

    private static final String CLIENT_RULE = """
            version: 1
            rules:
              - id: partner
                match: { http-client: { host: 127.0.0.1 } }
                limit: 1
                window: 1h
            """;

    @TempDir
    Path dir;

    @AfterEach
    void uninstall() {
        ClientBridge.install(null);
        ClientBridge.clientRules(false);
    }

    @Test
    void theClientsRegistryReachesTheBridgeOnlyOnceEveryKindHasJoined() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, CLIENT_RULE);
        EntryWiring wiring = new EntryWiring(RuleSetHolder.open(file), new ThrottledLog("dev.limiter.test", 0));
        ClientBridge.install(null);
        for (EntryPoint entry : EntryPoints.ALL) {
            entry.install(wiring);
            assertThat(ClientBridge.delegate()).as("installed before every kind joined").isNull();
        }
        wiring.installClients();
        assertThat(ClientBridge.delegate()).isSameAs(wiring.clients());
        // the last kind registered (HttpURLConnection's) decides its calls: over a limit of 1, the second is refused
        HttpURLConnection connection = (HttpURLConnection) URI.create("http://127.0.0.1:9/a").toURL().openConnection();
        assertThat(ClientBridge.enter(connection, null, null, null, false)).isNull();
        HttpURLConnection second = (HttpURLConnection) URI.create("http://127.0.0.1:9/b").toURL().openConnection();
        assertThat(ClientBridge.enter(second, null, null, null, false)).isInstanceOf(Throwable.class);
    }

    /** The bridge knows whether a call may be decided at all, from the start and across reloads both ways. */
    @Test
    void theBridgeKnowsWhetherAnyClientRuleIsInForce() throws Exception {
        Path file = dir.resolve("rules.yml");
        String server = """
                version: 1
                rules:
                  - id: api
                    match: { http: { path: /api/** } }
                    limit: 1
                    window: 1h
                """;
        Files.writeString(file, server);
        RuleSetHolder holder = RuleSetHolder.open(file);
        ClientBridge.clientRules(true);
        EntryWiring wiring = new EntryWiring(holder, new ThrottledLog("dev.limiter.test", 0));
        installAll(wiring);
        wiring.installClients();
        assertThat(ClientBridge.deciding()).as("no http-client rule at start").isFalse();

        Files.writeString(file, CLIENT_RULE);
        assertThat(holder.reload()).isTrue();
        assertThat(ClientBridge.deciding()).as("a reload added one").isTrue();

        Files.writeString(file, server);
        assertThat(holder.reload()).isTrue();
        assertThat(ClientBridge.deciding()).as("a reload removed it").isFalse();
    }

    private static void installAll(EntryWiring wiring) {
        for (EntryPoint entry : EntryPoints.ALL) {
            entry.install(wiring);
        }
    }
}
