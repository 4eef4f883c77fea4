package outbound;

import dev.limiter.api.OutboundRateLimitException;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import org.springframework.http.client.reactive.JdkClientHttpConnector;
import org.springframework.web.reactive.function.client.WebClient;
import org.springframework.web.reactive.function.client.WebClientRequestException;
import org.springframework.web.reactive.function.client.WebClientResponseException;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

/**
 * Calls the local {@link PartnerServer} with Spring's {@code WebClient} on Reactor Netty, run with the packaged agent
 * by {@code OutboundWebClientJarLayoutTest}; each scenario prints one line {@code name: k=v ...}.
 */
public final class WebClientCalls {

    private static WebClient client;
    private static String base;

    public static void main(String[] args) throws Exception {
        PartnerServer.serve(args, WebClientCalls::play);
    }

    private static void play(String partner, String[] scenarios) throws Exception {
        base = partner;
        client = WebClient.create(partner);
        for (String scenario : scenarios) {
            switch (scenario) {
                case "webclient-reject" -> BlockingScenarios.reject(scenario, WebClientCalls::get);
                case "webclient-wrapped" -> wrapped();
                case "webclient-pace" -> BlockingScenarios.pace(scenario, WebClientCalls::get);
                case "webclient-async-pace" -> asyncPace();
                case "webclient-retry" -> retry();
                case "webclient-in-flight" -> inFlight();
                case "webclient-lazy" -> lazy();
                case "webclient-jdk" -> jdkConnector();
                default -> throw new IllegalArgumentException(scenario);
            }
        }
    }

    /** The exchange of one GET: its status, as a response of any status is a response. */
    private static Mono<Integer> exchange(String path) {
        return client.get().uri(path).exchangeToMono(response -> response.releaseBody()
                .thenReturn(response.statusCode().value()));
    }

    /** One blocking GET; a rejection (the cause of Spring's request exception) is thrown as it is. */
    private static int get(String path) throws IOException {
        try {
            return exchange(path).block();
        } catch (WebClientRequestException e) {
            if (e.getCause() instanceof OutboundRateLimitException rejection) {
                throw rejection;
            }
            throw e;
        }
    }

    /** What a rejected request's Mono fails with. */
    private static void wrapped() {
        try {
            exchange("/webclient-reject/wrapped").block();
            System.out.println("webclient-wrapped: not rejected");
        } catch (RuntimeException e) {
            System.out.println("webclient-wrapped: type=" + e.getClass().getSimpleName() + " cause="
                    + (e.getCause() == null ? null : e.getCause().getClass().getSimpleName()) + " url="
                    + (e instanceof WebClientRequestException request ? request.getUri().getPath() : ""));
        }
    }

    /** 41 requests subscribed at once under 40/s: delayed on Reactor's timer, no thread waits. */
    private static void asyncPace() {
        int threads = ApplicationThreads.count();
        long start = System.nanoTime();
        List<Integer> statuses = Flux.range(0, 41).flatMap(i -> exchange("/webclient-async-pace/" + i), 64)
                .collectList().block(Duration.ofSeconds(30));
        System.out.println("webclient-async-pace: millis=" + (System.nanoTime() - start) / 1_000_000 + " ok="
                + statuses.stream().filter(status -> status == 200).count() + " hits="
                + PartnerServer.hits("/webclient-async-pace") + " threadsAdded="
                + (ApplicationThreads.count() - threads));
    }

    /** A 429 with Retry-After: 1 pauses the key: the next request is rejected, one after the pause answered. */
    private static void retry() throws Exception {
        int first = get("/webclient-busy/1");
        long retryAfter = -1;
        try {
            get("/webclient-busy/2");
        } catch (OutboundRateLimitException e) {
            retryAfter = e.retryAfterMillis();
        }
        Thread.sleep(1_100);
        int after = get("/webclient-busy/3");
        System.out.println("webclient-retry: first=" + first + " retryAfter=" + retryAfter + " after=" + after
                + " hits=" + PartnerServer.hits("/webclient-busy"));
    }

    /** A concurrency limit of 2: two at once pass, and their permits come back with their responses. */
    private static void inFlight() {
        int[] rounds = new int[2];
        int rejected = 0;
        for (int round = 0; round < 2; round++) {
            List<Integer> statuses = Flux.range(0, 2).flatMap(i -> exchange("/webclient-in-flight/" + i)
                    .onErrorReturn(WebClientRequestException.class, -1)).collectList().block();
            rounds[round] = (int) statuses.stream().filter(status -> status == 200).count();
            rejected += (int) statuses.stream().filter(status -> status == -1).count();
        }
        System.out.println("webclient-in-flight: first=" + rounds[0] + " second=" + rounds[1] + " rejected="
                + rejected);
    }

    /**
     * WebClient on the JDK client's connector: decided once, by the woven JDK client under it (not by both), its
     * rejection reported as Spring reports the connector's I/O failures.
     */
    private static void jdkConnector() {
        WebClient jdk = WebClient.builder().clientConnector(new JdkClientHttpConnector()).baseUrl(base).build();
        StringBuilder outcomes = new StringBuilder();
        for (int i = 0; i < 5; i++) {
            try {
                jdk.get().uri("/webclient-jdk/" + i).exchangeToMono(response -> response.releaseBody()).block();
                outcomes.append("OK,");
            } catch (WebClientRequestException e) {
                outcomes.append(e.getCause() instanceof OutboundRateLimitException ? "REJ," : "IO,");
            }
        }
        System.out.println("webclient-jdk: outcomes=" + outcomes + " hits=" + PartnerServer.hits("/webclient-jdk"));
    }

    /** A Mono made but subscribed only later, and twice: decided at each subscription, not when made. */
    private static void lazy() throws Exception {
        Mono<Integer> made = exchange("/webclient-lazy/1");
        int before = PartnerServer.hits("/webclient-lazy");
        StringBuilder outcomes = new StringBuilder();
        for (int i = 0; i < 3; i++) {
            try {
                made.block();
                outcomes.append("OK,");
            } catch (WebClientRequestException e) {
                outcomes.append(e.getCause() instanceof OutboundRateLimitException ? "REJ," : "IO,");
            } catch (WebClientResponseException e) {
                outcomes.append("HTTP,");
            }
        }
        System.out.println("webclient-lazy: before=" + before + " outcomes=" + outcomes + " hits="
                + PartnerServer.hits("/webclient-lazy"));
    }
}
