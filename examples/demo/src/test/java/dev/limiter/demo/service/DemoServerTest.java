package dev.limiter.demo.service;

import static org.assertj.core.api.Assertions.assertThat;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The demo service without the agent: every endpoint answers, so a 429 in the demo can only be the limiter's. */
class DemoServerTest {

    private static DemoServer server;
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(10)).build();

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
    void servletEndpointsAnswerWithJson() throws Exception {
        assertThat(get("/api/orders?sku=B-2")).isEqualTo("{\"sku\":\"B-2\",\"price_cents\":"
                + PriceCalculator.quote("B-2", 1) + "}");
        assertThat(get("/api/search?q=shoes")).isEqualTo("{\"query\":\"shoes\",\"hits\":3}");
        assertThat(get("/api/export?user=bob")).isEqualTo("{\"user\":\"bob\",\"rows\":1000}");
        assertThat(get("/api/users/17/profile")).isEqualTo("{\"page\":\"/17/profile\"}");
        // without the agent the partner client's @Limit does nothing: every call gets its rate at once
        assertThat(get("/api/convert?to=EUR")).isEqualTo("{\"to\":\"EUR\",\"rate\":"
                + new PartnerRatesClient().rate("EUR") + "}");
    }

    @Test
    void theJerseyResourceAnswersUnderRest() throws Exception {
        assertThat(get("/rest/catalog/42")).isEqualTo("{\"sku\":\"42\",\"in_stock\":true}");
    }

    @Test
    void theReportIsSlow() throws Exception {
        long start = System.nanoTime();
        assertThat(get("/api/report")).contains("ready");
        assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(
                Duration.ofMillis(Endpoint.REPORT_MILLIS));
    }

    @Test
    void clientTextIsCleanedBeforeItIsEchoed() throws Exception {
        assertThat(get("/api/search?q=%22%7D%3Cscript%3E")).isEqualTo("{\"query\":\"script\",\"hits\":3}");
    }

    private static String get(String path) throws Exception {
        HttpResponse<String> response = HTTP.send(HttpRequest.newBuilder(
                URI.create("http://127.0.0.1:" + server.port() + path)).timeout(Duration.ofSeconds(30)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(response.statusCode()).as("status of %s", path).isEqualTo(200);
        return response.body();
    }
}
