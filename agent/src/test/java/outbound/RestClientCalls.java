package outbound;

import dev.limiter.api.OutboundRateLimitException;
import java.io.IOException;
import org.springframework.http.client.ReactorClientHttpRequestFactory;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestClient;

/**
 * Calls the local {@link PartnerServer} with Spring's blocking {@code RestClient} on Reactor Netty
 * ({@code ReactorClientHttpRequestFactory}), run with the packaged agent by {@code OutboundRestClientJarLayoutTest};
 * each scenario prints one line {@code name: k=v ...}.
 */
public final class RestClientCalls {

    private static RestClient client;

    public static void main(String[] args) throws Exception {
        PartnerServer.serve(args, RestClientCalls::play);
    }

    private static void play(String partner, String[] scenarios) throws Exception {
        client = RestClient.builder().requestFactory(new ReactorClientHttpRequestFactory()).baseUrl(partner).build();
        for (String scenario : scenarios) {
            switch (scenario) {
                case "restclient-reject" -> BlockingScenarios.reject(scenario, RestClientCalls::get);
                case "restclient-pace" -> BlockingScenarios.pace(scenario, RestClientCalls::get);
                case "restclient-retry" -> retry();
                default -> throw new IllegalArgumentException(scenario);
            }
        }
    }

    /** One GET: its status, whatever it is; a rejection (the cause of Spring's I/O exception) thrown as it is. */
    private static int get(String path) throws IOException {
        try {
            return client.get().uri(path).exchange((request, response) -> response.getStatusCode().value());
        } catch (ResourceAccessException e) {
            if (e.getCause() instanceof OutboundRateLimitException rejection) {
                throw rejection;
            }
            throw e;
        }
    }

    /** A 429 with Retry-After: 1 pauses the key: the next request is rejected, one after the pause answered. */
    private static void retry() throws Exception {
        int first = get("/restclient-busy/1");
        long retryAfter = -1;
        try {
            get("/restclient-busy/2");
        } catch (OutboundRateLimitException e) {
            retryAfter = e.retryAfterMillis();
        }
        Thread.sleep(1_100);
        int after = get("/restclient-busy/3");
        System.out.println("restclient-retry: first=" + first + " retryAfter=" + retryAfter + " after=" + after
                + " hits=" + PartnerServer.hits("/restclient-busy"));
    }
}
