package dev.limiter.demo.driver;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.locks.LockSupport;

/**
 * One simulated client: sends its scenario's requests at the scenario's pace until the deadline, and counts the
 * answers. Pacing is open-loop (a fixed schedule, not "as fast as answers come") so an over-limit client really
 * is over its limit; a client that falls behind skips ahead instead of bursting to catch up.
 */
final class ClientLoop implements Runnable {

    private static final Duration TIMEOUT = Duration.ofSeconds(10);

    private final HttpClient http;
    private final String base;
    private final Tally tally;
    private final ObservedRules observed;
    private final long deadlineNanos;
    private final long startOffsetNanos;

    ClientLoop(HttpClient http, String base, Tally tally, ObservedRules observed, long deadlineNanos,
            long startOffsetNanos) {
        this.http = http;
        this.base = base;
        this.tally = tally;
        this.observed = observed;
        this.deadlineNanos = deadlineNanos;
        this.startOffsetNanos = startOffsetNanos;
    }

    @Override
    public void run() {
        Scenario scenario = tally.scenario;
        long period = scenario.perSecond() == 0 ? 0 : 1_000_000_000L / scenario.perSecond();
        long next = System.nanoTime() + startOffsetNanos;
        for (int n = 0; ; n++) {
            long now = System.nanoTime();
            if (period > 0 && next > now) {
                LockSupport.parkNanos(next - now);
                now = System.nanoTime();
            }
            if (now >= deadlineNanos || Thread.currentThread().isInterrupted()) {
                return;
            }
            next = Math.max(next + period, now);
            send(scenario.requests().apply(n));
        }
    }

    private void send(DemoRequest request) {
        tally.sent.increment();
        HttpRequest.Builder builder = HttpRequest.newBuilder(URI.create(base + request.path())).timeout(TIMEOUT)
                .GET();
        String[] headers = request.headers();
        for (int i = 0; i + 1 < headers.length; i += 2) {
            builder.header(headers[i], headers[i + 1]);
        }
        int status;
        String rejectedBy = null;
        try {
            HttpResponse<String> response = http.send(builder.build(), HttpResponse.BodyHandlers.ofString());
            status = response.statusCode();
            if (status == 429) {
                rejectedBy = RejectingRule.of(response.headers().firstValue("RateLimit").orElse(null),
                        response.body());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            tally.failed.increment();
            return;
        } catch (Exception e) {
            tally.failed.increment();
            return;
        }
        if (status >= 200 && status < 300) {
            tally.ok.increment();
        } else if (status == 429) {
            tally.limited.increment();
        } else {
            tally.failed.increment();
        }
        observed.record("GET", request.matchPath(), status, rejectedBy);
    }
}
