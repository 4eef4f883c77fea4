package dev.limiter.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The harness and the test applications on their own, without the agent: every server starts, prints
 * {@code LISTENING}, serves every endpoint the scenarios rely on, and is gone after {@code close()}. When a
 * limiter scenario fails, this tells whether the harness or the agent is to blame.
 */
class TestAppsWithoutAgentTest {

    @RegisterExtension
    static final ServerLogs SERVERS = new ServerLogs();

    static List<TestApp> servletApps() {
        return TestApp.servlet();
    }

    // each app is its own server: they may start side by side (ForkedServer still allows 2 start-ups at a time)
    @ParameterizedTest
    @Execution(ExecutionMode.CONCURRENT)
    @MethodSource("servletApps")
    void servesEveryEndpointWithoutTheAgent(TestApp app) {
        ForkedServer server = SERVERS.track(ForkedServer.start(app, "TestAppsWithoutAgentTest-" + app, List.of()));
        HttpApi http = server.http();

        HttpResponse<String> hello = http.get("/api/hello");
        assertThat(hello.statusCode()).isEqualTo(200);
        assertThat(hello.body()).isEqualTo("hello");
        assertThat(hello.headers().firstValue("X-App-Filter")).hasValue("ran");
        assertThat(hello.headers().firstValue("RateLimit")).as("no agent, no limiter headers").isEmpty();
        assertThat(http.get("/api/items/42").body()).isEqualTo("item 42");
        assertThat(http.status("/api/nothing")).isEqualTo(404);

        long filterRuns = http.number("/app/filter-count");
        assertThat(http.get("/forward").body()).isEqualTo("hello");
        assertThat(http.get("/forward?to=/api/items/7").body()).isEqualTo("item 7");
        assertThat(http.get("/include?to=/api/items/8").body()).isEqualTo("item 8");
        assertThat(http.number("/app/filter-count")).as("the app filter runs once per request, not per forward")
                .isEqualTo(filterRuns + 3);

        HttpResponse<String> boom = http.get("/boom");
        assertThat(boom.statusCode()).isEqualTo(500);
        assertThat(boom.body()).as("the app's error page").isEqualTo("error page 500");
        assertThat(http.get("/async/once?dispatch=true&ms=5").body()).isEqualTo("async dispatched");
        assertThat(http.get("/async/x?ms=5").body()).isEqualTo("async done");
        assertThat(http.status("/slow?ms=5")).isEqualTo(200);
        assertThat(http.status("/reports/daily?ms=5")).isEqualTo(200);
        assertThat(http.status("/reports/daily?ms=0&fail=true")).isEqualTo(500);

        CompletableFuture<HttpResponse<String>> held = http.getAsync("/reports/hold?gate=g");
        CompletableFuture<HttpResponse<String>> held2 = http.getAsync("/reports/hold?gate=g");
        await().atMost(Duration.ofSeconds(30)).until(() -> http.number("/app/gate?name=g") == 2);
        assertThat(held).isNotDone();
        http.get("/app/release?name=g");
        assertThat(held.join().statusCode()).isEqualTo(200);
        assertThat(held2.join().body()).isEqualTo("done");
        assertThat(http.number("/app/filter-count")).as("/app/ controls are not counted").isEqualTo(filterRuns + 11);

        server.close();
        assertThat(server.isAlive()).isFalse();
    }
}
