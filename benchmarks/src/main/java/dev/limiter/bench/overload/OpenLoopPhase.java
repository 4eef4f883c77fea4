package dev.limiter.bench.overload;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * One phase of open-loop load: requests sent at a constant rate whatever the server answers, so a slow server
 * cannot slow the load (a closed loop of N connections would let latency hide the overload). Each latency is
 * measured from when the request was due, not from when it went out, so a sender that falls behind is charged
 * to the latency and not hidden (coordinated omission). A request not answered within the timeout counts as
 * timed out, as a client that gives up would.
 */
final class OpenLoopPhase {

    static final int TIMED_OUT = -1;
    static final int FAILED = -2;

    private OpenLoopPhase() {
    }

    /** One stretch of constant-rate load. */
    record Segment(String name, double rate, double seconds) {
    }

    /**
     * Sends each segment's requests to {@code uri}, one segment straight after the other (no pause between, so
     * what follows an overload sees its aftermath), then waits for every answer.
     */
    static List<PhaseResult> run(HttpClient client, URI uri, List<Segment> segments, Duration timeout)
            throws InterruptedException {
        int total = 0;
        for (Segment segment : segments) {
            total += count(segment);
        }
        CountDownLatch answered = new CountDownLatch(total);
        HttpRequest request = HttpRequest.newBuilder(uri).timeout(timeout).GET().build();
        List<PhaseResult> results = new ArrayList<>();
        long start = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(5);
        for (Segment segment : segments) {
            int count = count(segment);
            int[] status = new int[count];
            long[] latencyNanos = new long[count];
            long[] dueNanos = new long[count];
            long[] lagNanos = new long[count];
            double periodNanos = 1e9 / segment.rate();
            for (int i = 0; i < count; i++) {
                long due = start + (long) (i * periodNanos);
                for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
                    LockSupport.parkNanos(wait);
                }
                dueNanos[i] = due - start;
                int slot = i;
                client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
                    latencyNanos[slot] = System.nanoTime() - due;
                    status[slot] = response != null ? response.statusCode() : timedOut(error) ? TIMED_OUT : FAILED;
                    answered.countDown();
                });
                lagNanos[i] = System.nanoTime() - due;
            }
            start += (long) (segment.seconds() * 1e9);
            results.add(new PhaseResult(segment.name(), segment.rate(), segment.seconds(), status, latencyNanos,
                    dueNanos, lagNanos));
        }
        if (!answered.await(timeout.toMillis() + 10_000, TimeUnit.MILLISECONDS)) {
            throw new IllegalStateException(answered.getCount() + " requests neither answered nor timed out");
        }
        return results;
    }

    private static int count(Segment segment) {
        return Math.max(1, (int) Math.round(segment.rate() * segment.seconds()));
    }

    private static boolean timedOut(Throwable error) {
        for (Throwable e = error; e != null; e = e.getCause()) {
            if (e instanceof HttpTimeoutException) {
                return true;
            }
        }
        return false;
    }
}
