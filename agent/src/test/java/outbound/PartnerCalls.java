package outbound;

import dev.limiter.api.OutboundRateLimitException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A program that calls a local "partner" server with {@code java.net.http.HttpClient}, run with the packaged agent
 * by {@code OutboundJdkClientJarLayoutTest}: each scenario prints one line {@code name: k=v ...} that the test
 * reads ({@link PartnerServer} counts what reached it).
 */
public final class PartnerCalls {

    private static final Map<String, AtomicInteger> HITS = PartnerServer.HITS;
    private static HttpClient client;
    private static String base;

    public static void main(String[] args) throws Exception {
        PartnerServer.serve(args, PartnerCalls::play);
    }

    private static void play(String partner, String[] args) throws Exception {
        base = partner;
        client = HttpClient.newHttpClient();
        for (String scenario : args) {
            switch (scenario) {
                case "reject" -> reject();
                case "async-reject" -> asyncReject();
                case "pace" -> pace("/pace", 41, 1);
                case "pace-threads" -> pace("/pace-threads", 100, 50);
                case "pace-virtual" -> paceVirtual("/pace-virtual", 1000);
                case "async-pace" -> asyncPace("/async-pace", 41);
                case "retry-reject" -> retryReject();
                case "retry-wait" -> retryWait();
                case "cancel" -> cancel();
                case "unmatched" -> unmatched();
                default -> throw new IllegalArgumentException(scenario);
            }
        }
    }

    private static HttpRequest request(String path) {
        return HttpRequest.newBuilder(URI.create(base + path)).GET().build();
    }

    private static int hits(String prefix) {
        return PartnerServer.hits(prefix);
    }

    /** Blocking calls over a limit of 2 an hour: OK OK then rejections with the rule and retry-after. */
    private static void reject() throws Exception {
        StringBuilder outcomes = new StringBuilder();
        String rejection = "";
        for (int i = 0; i < 5; i++) {
            try {
                client.send(request("/reject/" + i), HttpResponse.BodyHandlers.discarding());
                outcomes.append("OK,");
            } catch (OutboundRateLimitException e) {
                outcomes.append("REJ,");
                rejection = e.ruleId() + "/" + (e.retryAfterMillis() > 60_000) + "/" + (e instanceof IOException);
            }
        }
        System.out.println("reject: outcomes=" + outcomes + " hits=" + hits("/reject") + " rejection=" + rejection);
    }

    /** Asynchronous calls over a limit of 2 an hour: two answered, three failed futures, nothing sent for them. */
    private static void asyncReject() throws Exception {
        List<CompletableFuture<HttpResponse<Void>>> futures = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            futures.add(client.sendAsync(request("/async-reject/" + i), HttpResponse.BodyHandlers.discarding()));
        }
        int ok = 0;
        int rejected = 0;
        for (CompletableFuture<HttpResponse<Void>> future : futures) {
            try {
                future.get(10, TimeUnit.SECONDS);
                ok++;
            } catch (ExecutionException e) {
                if (e.getCause() instanceof OutboundRateLimitException) {
                    rejected++;
                }
            }
        }
        System.out.println("async-reject: ok=" + ok + " rejected=" + rejected + " hits=" + hits("/async-reject"));
    }

    /** {@code calls} blocking calls from {@code threads} threads, paced by a waiting rule. */
    private static void pace(String prefix, int calls, int threads) throws Exception {
        long start = System.nanoTime();
        if (threads == 1) {
            for (int i = 0; i < calls; i++) {
                client.send(request(prefix + "/" + i), HttpResponse.BodyHandlers.discarding());
            }
        } else {
            var pool = Executors.newFixedThreadPool(threads);
            List<Future<?>> done = new ArrayList<>();
            for (int i = 0; i < calls; i++) {
                int n = i;
                done.add(pool.submit(() -> client.send(request(prefix + "/" + n),
                        HttpResponse.BodyHandlers.discarding())));
            }
            for (Future<?> each : done) {
                each.get(60, TimeUnit.SECONDS);
            }
            pool.shutdown();
            pool.awaitTermination(10, TimeUnit.SECONDS);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println(prefix.substring(1) + ": millis=" + millis + " hits=" + hits(prefix));
    }

    /** {@code calls} blocking calls, each from its own virtual thread (Java 21 and later). */
    private static void paceVirtual(String prefix, int calls) throws Exception {
        ExecutorService virtual = (ExecutorService) Executors.class.getMethod("newVirtualThreadPerTaskExecutor")
                .invoke(null);
        CountDownLatch done = new CountDownLatch(calls);
        AtomicInteger failed = new AtomicInteger();
        long start = System.nanoTime();
        for (int i = 0; i < calls; i++) {
            int n = i;
            virtual.execute(() -> {
                try {
                    client.send(request(prefix + "/" + n), HttpResponse.BodyHandlers.discarding());
                } catch (Exception e) {
                    failed.incrementAndGet();
                } finally {
                    done.countDown();
                }
            });
        }
        done.await(60, TimeUnit.SECONDS);
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println(prefix.substring(1) + ": millis=" + millis + " hits=" + hits(prefix) + " failed="
                + failed.get());
    }

    /** Asynchronous calls paced by a waiting rule: every future at once, answered over time, few threads. */
    private static void asyncPace(String prefix, int calls) throws Exception {
        int threadsBefore = ApplicationThreads.count();
        long start = System.nanoTime();
        List<CompletableFuture<HttpResponse<Void>>> futures = new ArrayList<>();
        for (int i = 0; i < calls; i++) {
            futures.add(client.sendAsync(request(prefix + "/" + i), HttpResponse.BodyHandlers.discarding()));
        }
        long submitted = (System.nanoTime() - start) / 1_000_000;
        int threadsWhileWaiting = ApplicationThreads.count();
        for (CompletableFuture<HttpResponse<Void>> future : futures) {
            future.get(30, TimeUnit.SECONDS);
        }
        long millis = (System.nanoTime() - start) / 1_000_000;
        System.out.println(prefix.substring(1) + ": millis=" + millis + " submitted=" + submitted + " hits="
                + hits(prefix) + " addedThreads=" + (threadsWhileWaiting - threadsBefore));
    }

    /** A 429 with Retry-After: 1 pauses the key: the next call is rejected, one after the pause goes. */
    private static void retryReject() throws Exception {
        int first = client.send(request("/busy/1"), HttpResponse.BodyHandlers.discarding()).statusCode();
        long retryAfter = -1;
        try {
            client.send(request("/busy/2"), HttpResponse.BodyHandlers.discarding());
        } catch (OutboundRateLimitException e) {
            retryAfter = e.retryAfterMillis();
        }
        CompletableFuture<HttpResponse<Void>> async = client.sendAsync(request("/busy/3"),
                HttpResponse.BodyHandlers.discarding());
        String asyncOutcome;
        try {
            async.get(10, TimeUnit.SECONDS);
            asyncOutcome = "sent";
        } catch (ExecutionException e) {
            asyncOutcome = e.getCause() instanceof OutboundRateLimitException ? "rejected" : e.getCause().toString();
        }
        Thread.sleep(1_100);
        int after = client.send(request("/busy/4"), HttpResponse.BodyHandlers.discarding()).statusCode();
        System.out.println("retry-reject: first=" + first + " retryAfter=" + retryAfter + " async=" + asyncOutcome
                + " after=" + after + " hits=" + hits("/busy"));
    }

    /** A 429 with Retry-After: 1 and a waiting rule: the next calls wait the second out, then go. */
    private static void retryWait() throws Exception {
        int first = client.send(request("/busy-wait/1"), HttpResponse.BodyHandlers.discarding()).statusCode();
        long start = System.nanoTime();
        int second = client.send(request("/busy-wait/2"), HttpResponse.BodyHandlers.discarding()).statusCode();
        long blocking = (System.nanoTime() - start) / 1_000_000;
        HITS.remove("/busy-async");
        int asyncFirst = client.send(request("/busy-async/1"), HttpResponse.BodyHandlers.discarding()).statusCode();
        start = System.nanoTime();
        int asyncSecond = client.sendAsync(request("/busy-async/2"), HttpResponse.BodyHandlers.discarding())
                .get(10, TimeUnit.SECONDS).statusCode();
        long async = (System.nanoTime() - start) / 1_000_000;
        System.out.println("retry-wait: first=" + first + " second=" + second + " blocking=" + blocking
                + " asyncFirst=" + asyncFirst + " asyncSecond=" + asyncSecond + " async=" + async);
    }

    /** A delayed asynchronous call cancelled before it is sent gives its slot to the next call. */
    private static void cancel() throws Exception {
        client.send(request("/cancel/a"), HttpResponse.BodyHandlers.discarding());
        CompletableFuture<HttpResponse<Void>> delayed = client.sendAsync(request("/cancel/b"),
                HttpResponse.BodyHandlers.discarding());
        boolean cancelled = delayed.cancel(true);
        long start = System.nanoTime();
        client.sendAsync(request("/cancel/c"), HttpResponse.BodyHandlers.discarding()).get(10, TimeUnit.SECONDS);
        long millis = (System.nanoTime() - start) / 1_000_000;
        Thread.sleep(700); // the cancelled call's time has passed: it must not have been sent
        System.out.println("cancel: cancelled=" + cancelled + " millis=" + millis + " hits=" + hits("/cancel"));
    }

    /** A call no rule matches is sent untouched. */
    private static void unmatched() throws Exception {
        int ok = 0;
        for (int i = 0; i < 20; i++) {
            ok += client.send(request("/free/" + i), HttpResponse.BodyHandlers.discarding()).statusCode() == 200
                    ? 1 : 0;
        }
        System.out.println("unmatched: ok=" + ok + " hits=" + hits("/free"));
    }
}
