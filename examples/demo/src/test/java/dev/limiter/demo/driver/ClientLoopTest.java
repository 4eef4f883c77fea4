package dev.limiter.demo.driver;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.demo.service.DemoServer;
import java.net.http.HttpClient;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * A simulated client against the real demo service (no agent here, so nothing is limited): it stops at its
 * deadline, every answer is counted, and the rules its requests meet are attributed.
 */
class ClientLoopTest {

    private static DemoServer server;

    @BeforeAll
    static void start() throws Exception {
        server = DemoServer.start(0);
    }

    @AfterAll
    static void stop() throws Exception {
        if (server != null) {
            server.stop();
        }
    }

    @Test
    void aClientSendsUntilItsDeadlineAndCountsEveryAnswer() {
        Scenario scenario = new Scenario("search", "test", 1, 20,
                n -> new DemoRequest("/api/search?q=n" + n, "X-Api-Key", "k", Scenarios.XFF, "203.0.113.9"));
        Tally tally = new Tally(scenario);
        ObservedRules observed = new ObservedRules(BundledRules.load());
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build();

        new ClientLoop(http, "http://127.0.0.1:" + server.port(), tally, observed,
                System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500), 0).run();

        long sent = tally.sent.sum();
        assertThat(sent).isPositive();
        assertThat(tally.ok.sum()).isEqualTo(sent);
        assertThat(tally.limited.sum() + tally.failed.sum()).isZero();
        assertThat(observed.counts("search-per-api-key").matched.sum()).isEqualTo(sent);
        assertThat(observed.counts("api-cap-trial").ok.sum()).isEqualTo(sent);
        assertThat(observed.counts("orders-per-client").matched.sum()).isZero();
    }

    @Test
    void aClientPastItsDeadlineSendsNothing() {
        Scenario scenario = new Scenario("orders", "test", 1, 0, n -> new DemoRequest("/api/orders"));
        Tally tally = new Tally(scenario);

        new ClientLoop(HttpClient.newHttpClient(), "http://127.0.0.1:" + server.port(), tally,
                new ObservedRules(BundledRules.load()), System.nanoTime() - 1, 0).run();

        assertThat(tally.sent.sum()).isZero();
    }
}
