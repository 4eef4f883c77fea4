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
        PartnerServer server = PartnerServer.start();
        base = server.base();
        // no automatic retries: the client would wait out a 429 itself, inside the call the agent sees
        try (CloseableHttpClient http = HttpClients.custom().disableAutomaticRetries().build()) {
            client = http;
            for (String scenario : args) {
                switch (scenario) {
                    case "apache-reject" -> reject();
                    case "apache-pace" -> pace();
                    case "apache-retry" -> retry();
                    default -> throw new IllegalArgumentException(scenario);
                }
            }
        } catch (Throwable t) {
            t.printStackTrace();
            System.exit(1);
        }
        server.stop();
        System.exit(0);
    }

    private static int get(String path) throws IOException {
        return client.execute(new HttpGet(base + path), response -> response.getCode());
    }

    /** Over a limit of 2 an hour: OK OK, then the rejection thrown before anything is sent. */
    private static void reject() {
        StringBuilder outcomes = new StringBuilder();
        String rejection = "";
        for (int i = 0; i < 5; i++) {
            try {
                get("/apache-reject/" + i);
                outcomes.append("OK,");
            } catch (OutboundRateLimitException e) {
                outcomes.append("REJ,");
                rejection = e.ruleId() + "/" + (e.retryAfterMillis() > 60_000);
            } catch (IOException e) {
                outcomes.append("IO,");
            }
        }
        System.out.println("apache-reject: outcomes=" + outcomes + " hits=" + PartnerServer.hits("/apache-reject")
                + " rejection=" + rejection);
    }

    /** 41 calls paced at 40 a second by a waiting rule. */
    private static void pace() throws IOException {
        long start = System.nanoTime();
        for (int i = 0; i < 41; i++) {
            get("/apache-pace/" + i);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println("apache-pace: millis=" + millis + " hits=" + PartnerServer.hits("/apache-pace"));
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
