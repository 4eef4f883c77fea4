package outbound;

import dev.limiter.api.OutboundRateLimitException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.HttpURLConnection;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.springframework.web.client.ResourceAccessException;
import org.springframework.web.client.RestTemplate;

/**
 * Calls the local {@link PartnerServer} with the JDK's {@code HttpURLConnection}, directly and through a plain
 * Spring {@code RestTemplate}, run with the packaged agent by {@code OutboundUrlConnectionJarLayoutTest}; each
 * scenario prints one line {@code name: k=v ...}.
 */
public final class UrlConnectionCalls {

    private static String base;

    public static void main(String[] args) throws Exception {
        PartnerServer.serve(args, UrlConnectionCalls::play);
    }

    private static void play(String partner, String[] scenarios) throws Exception {
        base = partner;
        for (String scenario : scenarios) {
            switch (scenario) {
                case "urlconnection-reject" -> BlockingScenarios.reject(scenario, UrlConnectionCalls::get);
                case "urlconnection-pace" -> BlockingScenarios.pace(scenario, UrlConnectionCalls::get);
                case "urlconnection-post" -> post();
                case "urlconnection-retry" -> retry();
                case "urlconnection-in-flight" -> inFlight();
                case "urlconnection-dropped" -> dropped();
                case "urlconnection-rest-template" -> restTemplate();
                default -> throw new IllegalArgumentException(scenario);
            }
        }
    }

    private static HttpURLConnection open(String path) throws IOException {
        return (HttpURLConnection) URI.create(base + path).toURL().openConnection();
    }

    /** A GET read as most code reads one: the status, the headers, the body. */
    private static int get(String path) throws IOException {
        HttpURLConnection connection = open(path);
        int status = connection.getResponseCode();
        connection.getHeaderField("Content-Type");
        if (status < 400) {
            try (InputStream body = connection.getInputStream()) {
                body.readAllBytes();
            }
        }
        connection.disconnect();
        return status;
    }

    /** A POST: the body written first, then the answer read; decided once, at getOutputStream. */
    private static void post() throws IOException {
        StringBuilder outcomes = new StringBuilder();
        for (int i = 0; i < 2; i++) {
            HttpURLConnection connection = open("/urlconnection-post/" + i);
            connection.setRequestMethod("POST");
            connection.setDoOutput(true);
            try (OutputStream out = connection.getOutputStream()) {
                out.write("order".getBytes(StandardCharsets.UTF_8));
                outcomes.append(connection.getResponseCode()).append(',');
            } catch (OutboundRateLimitException e) {
                outcomes.append("REJ,");
                try {
                    connection.getResponseCode();
                } catch (OutboundRateLimitException again) {
                    outcomes.append("again,");
                }
            }
        }
        System.out.println("urlconnection-post: outcomes=" + outcomes + " hits="
                + PartnerServer.hits("/urlconnection-post"));
    }

    /** A 429 with Retry-After: 1 pauses the key: the next request is rejected, one after the pause answered. */
    private static void retry() throws Exception {
        int first = get("/urlconnection-busy/1");
        long retryAfter = -1;
        try {
            get("/urlconnection-busy/2");
        } catch (OutboundRateLimitException e) {
            retryAfter = e.retryAfterMillis();
        }
        Thread.sleep(1_100);
        int after = get("/urlconnection-busy/3");
        System.out.println("urlconnection-retry: first=" + first + " retryAfter=" + retryAfter + " after=" + after
                + " hits=" + PartnerServer.hits("/urlconnection-busy"));
    }

    /** A concurrency limit of 2: two threads at once, twice; each permit comes back with its response. */
    private static void inFlight() throws InterruptedException {
        int[] rounds = new int[2];
        AtomicInteger rejected = new AtomicInteger();
        for (int round = 0; round < 2; round++) {
            AtomicInteger ok = new AtomicInteger();
            CountDownLatch done = new CountDownLatch(2);
            for (int i = 0; i < 2; i++) {
                String path = "/urlconnection-in-flight/" + round + i;
                new Thread(() -> {
                    try {
                        if (get(path) == 200) {
                            ok.incrementAndGet();
                        }
                    } catch (OutboundRateLimitException e) {
                        rejected.incrementAndGet();
                    } catch (IOException e) {
                        e.printStackTrace();
                    } finally {
                        done.countDown();
                    }
                }).start();
            }
            done.await();
            rounds[round] = ok.get();
        }
        System.out.println("urlconnection-in-flight: first=" + rounds[0] + " second=" + rounds[1] + " rejected="
                + rejected);
    }

    /**
     * A concurrency limit of 1: a connection whose body was written but whose answer is never read holds the
     * permit until it is collected; then the next connection passes.
     */
    private static void dropped() throws Exception {
        HttpURLConnection held = open("/urlconnection-dropped/1");
        held.setRequestMethod("POST");
        held.setDoOutput(true);
        held.getOutputStream().close();
        String whileHeld;
        try {
            get("/urlconnection-dropped/2");
            whileHeld = "OK";
        } catch (OutboundRateLimitException e) {
            whileHeld = "REJ";
        }
        held = null;
        String afterDrop = "REJ";
        for (int i = 0; i < 50 && afterDrop.equals("REJ"); i++) {
            System.gc();
            Thread.sleep(100);
            try {
                get("/urlconnection-dropped/3");
                afterDrop = "OK";
            } catch (OutboundRateLimitException e) {
                afterDrop = "REJ";
            }
        }
        System.out.println("urlconnection-dropped: whileHeld=" + whileHeld + " afterDrop=" + afterDrop);
    }

    /** A plain RestTemplate (its default factory opens HttpURLConnections): a rejection as Spring reports I/O. */
    private static void restTemplate() {
        RestTemplate template = new RestTemplate();
        StringBuilder outcomes = new StringBuilder();
        String cause = "";
        for (int i = 0; i < 3; i++) {
            try {
                template.getForEntity(base + "/urlconnection-rest/" + i, String.class);
                outcomes.append("OK,");
            } catch (ResourceAccessException e) {
                outcomes.append("REJ,");
                cause = e.getCause() == null ? "" : e.getCause().getClass().getSimpleName();
            }
        }
        System.out.println("urlconnection-rest-template: outcomes=" + outcomes + " cause=" + cause + " hits="
                + PartnerServer.hits("/urlconnection-rest"));
    }
}
