package dev.limiter.demo.service;

import dev.limiter.api.OutboundRateLimitException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;

/**
 * A real outbound client: shipping quotes from a partner's HTTP API (in the demo, the pretend partner endpoint
 * {@code /partner/shipping} of this same server), called with the JDK's {@link HttpClient} and no limiter code.
 * The partner allows 10 calls a second: the {@code partner-shipping} rule of {@code examples/rules.yml}
 * ({@code http-client:}) paces the calls to that, making callers wait their turn; one that would wait too long
 * fails with {@link OutboundRateLimitException}, an {@code IOException} like any failed call, and the shipping
 * endpoint answers without a quote.
 */
public final class PartnerShippingClient {

    /** The rule id in the rules file (JMX name). */
    public static final String RULE = "partner-shipping";

    private static volatile String partner = "http://127.0.0.1:8080";

    private final HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();

    /** Where the partner's API is: the demo server tells its own address once it listens. */
    static void partnerAt(String base) {
        partner = base;
    }

    /** The quote in cents for {@code zip}, or null with the reason in {@code note[0]}. */
    public String quote(String zip, String[] note) throws InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(partner + "/partner/shipping?zip=" + zip))
                .timeout(Duration.ofSeconds(5)).GET().build();
        try {
            HttpResponse<String> response = client.send(request, HttpResponse.BodyHandlers.ofString());
            if (response.statusCode() != 200) {
                note[0] = "partner answered " + response.statusCode();
                return null;
            }
            return response.body();
        } catch (OutboundRateLimitException e) {
            note[0] = "partner quota spent, retry in " + e.retryAfterMillis() + " ms";
            return null;
        } catch (IOException e) {
            note[0] = "partner unreachable";
            return null;
        }
    }
}
