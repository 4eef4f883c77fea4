package dev.limiter.bench.overload;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads the adaptive rule's limit from the agent's Prometheus endpoint ({@code limiter_adaptive_limit}) every
 * {@code overload.sample-ms} [250] while the load runs (0: not at all, see {@link #ENABLED}), so the report can say how far the limit fell and how fast it came back.
 */
final class AdaptiveLimitSampler implements AutoCloseable {

    /** When (nanos since the sampler started) the limit was what. */
    record Sample(long nanos, int limit) {
    }

    /** How often the endpoint is read; a scrape costs the server some CPU, which it shares with the generator. */
    static final long INTERVAL_MILLIS = Long.getLong("overload.sample-ms", 250);
    static final boolean ENABLED = INTERVAL_MILLIS > 0;

    private static final String METRIC = "limiter_adaptive_limit{rule=\"work\"} ";

    private final List<Sample> samples = new ArrayList<>();
    private final Thread thread;
    private final long start = System.nanoTime();
    private volatile boolean running = true;

    AdaptiveLimitSampler(int metricsPort) {
        HttpClient client = HttpClient.newHttpClient();
        HttpRequest scrape = HttpRequest.newBuilder(URI.create("http://127.0.0.1:" + metricsPort + "/metrics"))
                .timeout(Duration.ofSeconds(1)).build();
        thread = new Thread(() -> {
            while (running) {
                try {
                    String text = client.send(scrape, HttpResponse.BodyHandlers.ofString()).body();
                    int at = text.indexOf(METRIC);
                    if (at >= 0) {
                        int end = text.indexOf('\n', at);
                        int limit = (int) Double.parseDouble(text.substring(at + METRIC.length(), end).trim());
                        synchronized (samples) {
                            samples.add(new Sample(System.nanoTime() - start, limit));
                        }
                    }
                    Thread.sleep(INTERVAL_MILLIS);
                } catch (InterruptedException e) {
                    return;
                } catch (Exception notYet) {
                    // the endpoint opens after the first request: try again
                    try {
                        Thread.sleep(INTERVAL_MILLIS);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }
        }, "adaptive-limit-sampler");
        thread.setDaemon(true);
        thread.start();
    }

    /** Nanos since this sampler started: the load's clock is aligned to it by the caller. */
    long elapsedNanos() {
        return System.nanoTime() - start;
    }

    List<Sample> samples() {
        synchronized (samples) {
            return List.copyOf(samples);
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.interrupt();
        thread.join(2_000);
    }
}
