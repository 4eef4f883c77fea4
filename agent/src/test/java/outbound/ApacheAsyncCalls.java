package outbound;

import dev.limiter.api.OutboundRateLimitException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.apache.hc.client5.http.async.methods.SimpleHttpResponse;
import org.apache.hc.client5.http.async.methods.SimpleRequestBuilder;
import org.apache.hc.client5.http.impl.async.CloseableHttpAsyncClient;
import org.apache.hc.client5.http.impl.async.HttpAsyncClients;

/**
 * Calls the local {@link PartnerServer} with Apache HttpClient 5's async client, run with the packaged agent by
 * {@code OutboundApacheAsyncClientJarLayoutTest}; each scenario prints one line {@code name: k=v ...}.
 */
public final class ApacheAsyncCalls {

    private static CloseableHttpAsyncClient client;
    private static String base;

    public static void main(String[] args) throws Exception {
        PartnerServer.serve(args, ApacheAsyncCalls::play);
    }

    private static void play(String partner, String[] scenarios) throws Exception {
        base = partner;
        // no automatic retries: the client would wait out a 429 itself
        try (CloseableHttpAsyncClient http = HttpAsyncClients.custom().disableAutomaticRetries().build()) {
            http.start();
            client = http;
            for (String scenario : scenarios) {
                switch (scenario) {
                    case "apache-async-reject" -> reject();
                    case "apache-async-pace" -> pace();
                    case "apache-async-retry" -> retry();
                    case "apache-async-in-flight" -> inFlight();
                    default -> throw new IllegalArgumentException(scenario);
                }
            }
        }
    }

    private static Future<SimpleHttpResponse> execute(String path) {
        return client.execute(SimpleRequestBuilder.get(base + path).build(), null);
    }

    /** Executes {@code count} requests of {@code prefix} at once: {ok, rejected} once all are done. */
    private static int[] executeAll(String prefix, int count) throws Exception {
        List<Future<SimpleHttpResponse>> futures = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            futures.add(execute(prefix + "/" + i));
        }
        int[] counts = new int[2];
        for (Future<SimpleHttpResponse> future : futures) {
            try {
                if (future.get(30, TimeUnit.SECONDS).getCode() == 200) {
                    counts[0]++;
                }
            } catch (ExecutionException e) {
                if (e.getCause() instanceof OutboundRateLimitException) {
                    counts[1]++;
                }
            }
        }
        return counts;
    }

    private static void reject() throws Exception {
        int[] counts = executeAll("/apache-async-reject", 5);
        System.out.println("apache-async-reject: ok=" + counts[0] + " rejected=" + counts[1] + " hits="
                + PartnerServer.hits("/apache-async-reject"));
    }

    /** 41 requests executed at once under 40/s: delayed on a timer, no thread waits. */
    private static void pace() throws Exception {
        java.util.List<String> before = ApplicationThreads.names();
        long start = System.nanoTime();
        int[] counts = executeAll("/apache-async-pace", 41);
        System.out.println("apache-async-pace: millis=" + (System.nanoTime() - start) / 1_000_000 + " ok=" + counts[0]
                + " hits=" + PartnerServer.hits("/apache-async-pace") + " threadsAdded="
                + (ApplicationThreads.count() - before.size()));
        java.util.List<String> added = ApplicationThreads.names();
        added.removeAll(before);
        System.out.println("apache-async-pace-threads: " + added);
    }

    /** A 429 with Retry-After: 1 pauses the key: the next request is rejected, one after the pause answered. */
    private static void retry() throws Exception {
        int first = execute("/apache-async-busy/1").get(30, TimeUnit.SECONDS).getCode();
        long retryAfter = -1;
        try {
            execute("/apache-async-busy/2").get(30, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            if (e.getCause() instanceof OutboundRateLimitException rejection) {
                retryAfter = rejection.retryAfterMillis();
            }
        }
        Thread.sleep(1_100);
        int after = execute("/apache-async-busy/3").get(30, TimeUnit.SECONDS).getCode();
        System.out.println("apache-async-retry: first=" + first + " retryAfter=" + retryAfter + " after=" + after
                + " hits=" + PartnerServer.hits("/apache-async-busy"));
    }

    /** A concurrency limit of 2: two at once pass, and their permits come back with their responses. */
    private static void inFlight() throws Exception {
        int[] first = executeAll("/apache-async-in-flight", 2);
        int[] second = executeAll("/apache-async-in-flight", 2);
        System.out.println("apache-async-in-flight: first=" + first[0] + " second=" + second[0] + " rejected="
                + (first[1] + second[1]));
    }
}
