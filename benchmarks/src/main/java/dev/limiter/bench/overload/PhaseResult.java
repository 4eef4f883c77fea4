package dev.limiter.bench.overload;

import java.util.Arrays;

/**
 * What one phase of open-loop load got back: per request its HTTP status (or {@link OpenLoopPhase#TIMED_OUT} /
 * {@link OpenLoopPhase#FAILED}), its latency from when it was due, when it was due in the phase, and how late the
 * load generator handed it to the client (its own lag, which the latency includes: large lags mean the generator,
 * not the server, was the bottleneck).
 */
record PhaseResult(String name, double rate, double seconds, int[] status, long[] latencyNanos, long[] dueNanos,
        long[] lagNanos) {

    int sent() {
        return status.length;
    }

    int count(int code) {
        int n = 0;
        for (int s : status) {
            if (s == code) {
                n++;
            }
        }
        return n;
    }

    /** Answered 200 per second of the phase. */
    double goodput() {
        return count(200) / seconds;
    }

    /** 429 and 503 answers: the limiter's (or the server's) refusals. */
    int rejected() {
        return count(429) + count(503);
    }

    /** Neither an answer of 200 nor a refusal: timed out, failed, or another status. */
    int lost() {
        return sent() - count(200) - rejected();
    }

    /** The {@code q} quantile (0 to 1) of the generator's lag in handing requests to the client, in ms. */
    double lagMillis(double q) {
        long[] sorted = lagNanos.clone();
        Arrays.sort(sorted);
        return sorted[Math.max(0, Math.min(sorted.length - 1, (int) Math.ceil(q * sorted.length) - 1))] / 1e6;
    }

    /** The {@code q} quantile (0 to 1) of the successful requests' latencies in milliseconds; NaN if none. */
    double successMillis(double q) {
        long[] ok = new long[count(200)];
        int n = 0;
        for (int i = 0; i < status.length; i++) {
            if (status[i] == 200) {
                ok[n++] = latencyNanos[i];
            }
        }
        if (n == 0) {
            return Double.NaN;
        }
        Arrays.sort(ok);
        int index = (int) Math.ceil(q * n) - 1;
        return ok[Math.max(0, Math.min(n - 1, index))] / 1e6;
    }

    /** Per whole second of the phase, by when the request was due: the share of requests refused. */
    double[] rejectedShareBySecond() {
        int seconds = (int) Math.ceil(this.seconds);
        int[] sent = new int[seconds];
        int[] refused = new int[seconds];
        for (int i = 0; i < status.length; i++) {
            int second = (int) Math.min(seconds - 1, dueNanos[i] / 1_000_000_000L);
            sent[second]++;
            if (status[i] == 429 || status[i] == 503) {
                refused[second]++;
            }
        }
        double[] share = new double[seconds];
        for (int s = 0; s < seconds; s++) {
            share[s] = sent[s] == 0 ? 0 : (double) refused[s] / sent[s];
        }
        return share;
    }

    /** Per whole second of the phase, by when the request was due: the p99 of its successful requests, in ms. */
    long[] successP99BySecond() {
        int seconds = (int) Math.ceil(this.seconds);
        long[] p99 = new long[seconds];
        for (int s = 0; s < seconds; s++) {
            long[] ok = new long[status.length];
            int n = 0;
            for (int i = 0; i < status.length; i++) {
                if (status[i] == 200 && Math.min(seconds - 1, dueNanos[i] / 1_000_000_000L) == s) {
                    ok[n++] = latencyNanos[i];
                }
            }
            if (n > 0) {
                Arrays.sort(ok, 0, n);
                p99[s] = ok[Math.max(0, (int) Math.ceil(0.99 * n) - 1)] / 1_000_000;
            }
        }
        return p99;
    }
}
