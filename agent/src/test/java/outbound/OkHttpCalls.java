package outbound;

import dev.limiter.api.OutboundRateLimitException;
import java.io.IOException;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.Call;
import okhttp3.Callback;
import okhttp3.OkHttpClient;
import okhttp3.Request;
import okhttp3.Response;

/**
 * Calls the local {@link PartnerServer} with OkHttp (4 or 5, whichever is on the class path), run with the packaged agent by
 * {@code OutboundOkHttpClientJarLayoutTest}; each scenario prints one line {@code name: k=v ...}.
 */
public final class OkHttpCalls {

    private static OkHttpClient client;
    private static String base;

    public static void main(String[] args) throws Exception {
        PartnerServer.serve(args, OkHttpCalls::play);
    }

    private static void play(String partner, String[] scenarios) throws Exception {
        base = partner;
        client = new OkHttpClient();
        // read, not the compile-time constant (inlined from the OkHttp this was compiled against)
        System.out.println("okhttp-version: " + Class.forName("okhttp3.OkHttp").getField("VERSION").get(null));
        for (String scenario : scenarios) {
            switch (scenario) {
                case "okhttp-reject" -> BlockingScenarios.reject(scenario, OkHttpCalls::get);
                case "okhttp-async-reject" -> asyncReject();
                case "okhttp-pace" -> BlockingScenarios.pace(scenario, OkHttpCalls::get);
                case "okhttp-async-pace" -> asyncPace();
                case "okhttp-retry" -> retry();
                case "okhttp-in-flight" -> inFlight();
                default -> throw new IllegalArgumentException(scenario);
            }
        }
    }

    private static Call call(String path) {
        return client.newCall(new Request.Builder().url(base + path).build());
    }

    private static int get(String path) throws IOException {
        try (Response response = call(path).execute()) {
            return response.code();
        }
    }

    /** Enqueues {@code count} calls of {@code prefix}; counts answered and rejected callbacks. */
    private static int[] enqueueAll(String prefix, int count) throws InterruptedException {
        CountDownLatch done = new CountDownLatch(count);
        AtomicInteger ok = new AtomicInteger();
        AtomicInteger rejected = new AtomicInteger();
        for (int i = 0; i < count; i++) {
            call(prefix + "/" + i).enqueue(new Callback() {
                @Override
                public void onFailure(Call call, IOException e) {
                    if (e instanceof OutboundRateLimitException) {
                        rejected.incrementAndGet();
                    }
                    done.countDown();
                }

                @Override
                public void onResponse(Call call, Response response) {
                    response.close();
                    ok.incrementAndGet();
                    done.countDown();
                }
            });
        }
        done.await(30, TimeUnit.SECONDS);
        return new int[] {ok.get(), rejected.get()};
    }

    private static void asyncReject() throws InterruptedException {
        int[] counts = enqueueAll("/okhttp-async-reject", 5);
        System.out.println("okhttp-async-reject: ok=" + counts[0] + " rejected=" + counts[1] + " hits="
                + PartnerServer.hits("/okhttp-async-reject"));
    }

    private static void asyncPace() throws InterruptedException {
        long start = System.nanoTime();
        int[] counts = enqueueAll("/okhttp-async-pace", 41);
        System.out.println("okhttp-async-pace: millis=" + (System.nanoTime() - start) / 1_000_000 + " ok="
                + counts[0] + " hits=" + PartnerServer.hits("/okhttp-async-pace"));
    }

    /** A 429 with Retry-After: 1 on an enqueued call pauses the key: the next execute() is rejected. */
    private static void retry() throws Exception {
        int[] first = enqueueAll("/okhttp-busy", 1);
        long retryAfter = -1;
        try {
            get("/okhttp-busy/2");
        } catch (OutboundRateLimitException e) {
            retryAfter = e.retryAfterMillis();
        }
        Thread.sleep(1_100);
        int after = get("/okhttp-busy/3");
        System.out.println("okhttp-retry: firstAnswered=" + first[0] + " retryAfter=" + retryAfter + " after="
                + after + " hits=" + PartnerServer.hits("/okhttp-busy"));
    }

    /** A concurrency limit of 2 over enqueued calls: the permits go back as the callbacks run. */
    private static void inFlight() throws InterruptedException {
        int[] first = enqueueAll("/okhttp-in-flight", 2);
        int[] second = enqueueAll("/okhttp-in-flight", 2);
        System.out.println("okhttp-in-flight: first=" + first[0] + " second=" + second[0] + " rejected="
                + (first[1] + second[1]));
    }
}
