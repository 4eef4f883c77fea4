package dev.limiter.it.jmx;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.it.harness.ServerLogs;
import javax.management.ObjectName;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A flood of fresh API keys against a rule whose key slots all hold live state (docs/rules.md, "Key bound"): with
 * the default {@code on-full: reject} the throttled key stays throttled, every new key is refused with a 429,
 * and the rule's MBean counts them in {@code KeysRefused}. A Jetty 12 server with the agent in its own JVM.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class Jetty12KeyFloodTest {

    private static final String RULES = """
            version: 1
            reload: { watch: false }
            rules:
              - id: flood
                match: { http: { path: /api/items/flood } }
                key: header:X-Api-Key
                limit: 1
                window: 1h
                max-keys: 3
            """;

    @RegisterExtension
    final ServerLogs servers = new ServerLogs();

    private static final ObjectName FLOOD = AttachedServer.rule("flood");

    private AttachedServer attached;

    @BeforeAll
    void startAndAttach() {
        attached = AttachedServer.start(servers, "Jetty12KeyFloodTest", RULES, FLOOD);
    }

    @AfterAll
    void stop() {
        if (attached != null) {
            attached.close();
        }
    }

    private Object attr(String attribute) throws Exception {
        return attached.mbeans.getAttribute(FLOOD, attribute);
    }

    private int status(String apiKey) {
        return attached.http.status("/api/items/flood", "X-Api-Key", apiKey);
    }

    @Test
    void aFloodOfFreshKeysNeitherResetsAThrottledKeyNorGetsThrough() throws Exception {
        assertThat(status("victim")).isEqualTo(200);
        assertThat(status("victim")).isEqualTo(429);
        assertThat(status("b")).isEqualTo(200);
        assertThat(status("c")).isEqualTo(200);
        int refused = 0;
        for (int i = 0; i < 30; i++) {
            refused += status("fresh-" + i) == 429 ? 1 : 0;
        }
        assertThat(refused).isEqualTo(30);
        assertThat(status("victim")).as("still throttled after 10x max-keys new keys").isEqualTo(429);
        assertThat(attr("KeysRefused")).isEqualTo(30L);
        assertThat(attr("KeysAdmittedWithoutState")).isEqualTo(0L);
        assertThat(attr("ActiveKeys")).isEqualTo(3);
        assertThat(attr("Rejected")).isEqualTo(32L);
        assertThat(attr("Allowed")).isEqualTo(3L);
    }
}
