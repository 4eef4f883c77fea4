package dev.limiter.it.harness;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.parallel.Execution;
import org.junit.jupiter.api.parallel.ExecutionMode;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The JAX-RS test servers on their own, without the agent: each starts, serves every resource the JAX-RS
 * scenarios rely on with the expected bodies (including the application's ExceptionMapper and the plain-method
 * calls), and is gone after {@code close()}. When a JAX-RS limiter scenario fails, this tells whether the app or
 * the agent is to blame.
 */
class JaxrsAppsWithoutAgentTest {

    @RegisterExtension
    static final ServerLogs SERVERS = new ServerLogs();

    static List<TestApp> jaxrsApps() {
        return TestApp.jaxrs();
    }

    // each app is its own server: they may start side by side (ForkedServer still allows 2 start-ups at a time)
    @ParameterizedTest
    @Execution(ExecutionMode.CONCURRENT)
    @MethodSource("jaxrsApps")
    void servesEveryResourceWithoutTheAgent(TestApp app) {
        ForkedServer server = SERVERS.track(ForkedServer.start(app, "JaxrsAppsWithoutAgentTest-" + app, List.of()));
        HttpApi http = server.http();

        HttpResponse<String> list = http.get("/rest/items");
        assertThat(list.statusCode()).isEqualTo(200);
        assertThat(list.body()).isEqualTo("items");
        assertThat(list.headers().firstValue("RateLimit")).as("no agent, no limiter headers").isEmpty();
        for (int i = 0; i < 5; i++) {
            assertThat(http.get("/rest/items/42").body()).isEqualTo("item 42");
        }
        assertThat(http.post("/rest/items", "pen").body()).isEqualTo("created pen");
        assertThat(http.get("/rest/items/search?q=ink").body()).isEqualTo("found ink");
        assertThat(http.get("/rest/greetings/ann").body()).as("annotations inherited from the interface")
                .isEqualTo("hello ann");
        assertThat(http.get("/rest/orders").body()).isEqualTo("orders");
        assertThat(http.get("/rest/orders/7").body()).isEqualTo("order 7");
        assertThat(http.get("/rest/stock/pen").body()).isEqualTo("stock pen");

        HttpResponse<String> fail = http.get("/rest/items/fail");
        assertThat(fail.statusCode()).as("the application's ExceptionMapper<Throwable>").isEqualTo(500);
        assertThat(fail.body()).isEqualTo("mapped by app");
        // the mapper takes the runtime's own WebApplicationExceptions too: a plain WAE 429 would not survive it
        HttpResponse<String> notFound = http.get("/rest/nothing");
        assertThat(notFound.statusCode()).as("404 NotFoundException, mapped").isEqualTo(500);
        assertThat(notFound.body()).isEqualTo("mapped by app");

        for (int i = 0; i < 5; i++) {
            assertThat(http.get("/rest/mail?to=ann").body()).isEqualTo("sent to ann");
            assertThat(http.get("/rest/mail/urgent?to=bob").body()).isEqualTo("sent urgently to bob");
            assertThat(http.get("/rest/notify?to=cy").body()).isEqualTo("pinged cy");
            assertThat(http.get("/rest/marker").body()).isEqualTo("marker");
        }
        assertThat(http.get("/rest/mail/slow").body()).isEqualTo("sent slowly");
        HttpResponse<String> failed = http.get("/rest/mail/slow?fail=true");
        assertThat(failed.statusCode()).isEqualTo(502);
        assertThat(failed.body()).isEqualTo("send failed: mail server down");

        CompletableFuture<HttpResponse<String>> held = http.getAsync("/rest/mail/slow?gate=g");
        CompletableFuture<HttpResponse<String>> held2 = http.getAsync("/rest/mail/slow?gate=g");
        await().atMost(Duration.ofSeconds(30)).until(() -> http.number("/rest/app/gate?name=g") == 2);
        assertThat(held).isNotDone();
        http.get("/rest/app/release?name=g");
        assertThat(held.orTimeout(30, TimeUnit.SECONDS).join().body()).isEqualTo("sent slowly");
        assertThat(held2.orTimeout(30, TimeUnit.SECONDS).join().statusCode()).isEqualTo(200);

        server.close();
        assertThat(server.isAlive()).isFalse();
    }
}
