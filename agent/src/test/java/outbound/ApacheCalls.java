package outbound;

import dev.limiter.api.OutboundRateLimitException;
import java.io.IOException;
import org.apache.hc.client5.http.classic.methods.HttpGet;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;
import org.apache.hc.client5.http.impl.classic.HttpClients;

/**
 * Calls the local {@link PartnerServer} with Apache HttpClient 5's classic client, run with the packaged agent by
 * {@code OutboundApacheClientJarLayoutTest}; each scenario prints one line {@code name: k=v ...}.
 */
public final class ApacheCalls {

    private static CloseableHttpClient client;
    private static String base;

    public static void main(String[] args) throws Exception {
        PartnerServer.serve(args, ApacheCalls::play);
    }

    private static void play(String partner, String[] scenarios) throws Exception {
        base = partner;
        // no automatic retries: the client would wait out a 429 itself, inside the call the agent sees
        try (CloseableHttpClient http = HttpClients.custom().disableAutomaticRetries().build()) {
            client = http;
            for (String scenario : scenarios) {
                switch (scenario) {
                    case "apache-reject" -> BlockingScenarios.reject(scenario, ApacheCalls::get);
                    case "apache-pace" -> BlockingScenarios.pace(scenario, ApacheCalls::get);
                    case "apache-retry" -> retry();
                    default -> throw new IllegalArgumentException(scenario);
                }
            }
        }
    }

    private static int get(String path) throws IOException {
        return client.execute(new HttpGet(base + path), response -> response.getCode());
    }

    /** A 429 with Retry-After: 1 pauses the key: the next call is rejected, one after the pause goes. */
    private static void retry() throws Exception {
        int first = get("/apache-busy/1");
        long retryAfter = -1;
        try {
            get("/apache-busy/2");
        } catch (OutboundRateLimitException e) {
            retryAfter = e.retryAfterMillis();
        }
        Thread.sleep(1_100);
        int after = get("/apache-busy/3");
        System.out.println("apache-retry: first=" + first + " retryAfter=" + retryAfter + " after=" + after
                + " hits=" + PartnerServer.hits("/apache-busy"));
    }
}
