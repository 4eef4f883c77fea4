package dev.limiter.redis;

import java.util.concurrent.atomic.LongAdder;

/**
 * Live statistics of one {@link RedisStore}, as plain getters for the JMX layer to publish (an MBean is a thin
 * wrapper over this object; it reads, never writes).
 *
 * <p>Counters are {@link LongAdder}s (no contention between request threads); latencies are the round-trip
 * times of successful checks, in microseconds, from a {@link LatencyHistogram} since start (or the last
 * {@link #resetLatencies()}).
 */
public final class RedisStoreStats {

    private final String type;
    private final RedisStore store;
    final LongAdder roundTrips = new LongAdder();
    final LongAdder errors = new LongAdder();
    final LongAdder timeouts = new LongAdder();
    final LongAdder fallbacks = new LongAdder();
    final LongAdder scriptReloads = new LongAdder();
    final LongAdder lostReleases = new LongAdder();
    final LatencyHistogram latency = new LatencyHistogram();
    /** Told of every failed round trip (the JFR events); null until someone listens. */
    private static volatile StoreFailureListener failureListener;
    /** Why the last failed round trip or probe failed; written only on failures, so no cost while Redis answers. */
    private volatile String lastError = "";

    RedisStoreStats(String type, RedisStore store) {
        this.type = type;
        this.store = store;
    }

    /** {@code redis} (one server) or {@code redis-cluster}. */
    public String getType() {
        return type;
    }

    /** UP, FALLBACK (circuit open, on-failure applied) or DOWN (closed). */
    public StoreState getState() {
        return store.state();
    }

    /**
     * Why Redis last failed ({@code ""} if it never did), e.g. {@code JedisAccessControlException: WRONGPASS
     * invalid username-password pair or user is disabled.}: the exception and its innermost message, never a
     * password (Redis does not echo it). Kept after a recovery, as a record of the last outage.
     */
    public String getLastError() {
        return lastError;
    }

    void failure(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        String message = root.getMessage() != null ? root.getMessage() : e.getMessage();
        lastError = e.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    /** A failed round trip: recorded as {@link #failure(Throwable)} does, then told to the listener, if any. */
    void failed(Throwable e, boolean timeout) {
        failure(e);
        StoreFailureListener listener = failureListener;
        if (listener != null) {
            try {
                listener.failed(type, timeout, lastError);
            } catch (RuntimeException ignored) {
                // a listener cannot change how the store handles its failure
            }
        }
    }

    /** Tells {@code listener} (null: nobody) of every failed round trip of every store in this JVM. */
    public static void failureListener(StoreFailureListener listener) {
        failureListener = listener;
    }

    /**
     * The round-trip latencies as cumulative counts: element {@code i} counts the recorded latencies below
     * {@code boundsMicros[i]} microseconds (a power of two: an exact edge of the histogram's buckets), the last
     * element every latency. One pass over the histogram, so the counts are consistent with each other.
     */
    public long[] latencyCountsBelow(long[] boundsMicros) {
        return latency.cumulativeBelow(boundsMicros);
    }

    /** The on-failure policy in force. */
    public String getOnFailure() {
        return store.settings().onFailure().name();
    }

    /** Successful round trips to Redis (checks, peeks, releases). */
    public long getRoundTrips() {
        return roundTrips.sum();
    }

    /** Store errors: failed round trips (timeouts, connection failures, server errors). */
    public long getErrors() {
        return errors.sum();
    }

    /** The subset of {@link #getErrors()} that were timeouts. */
    public long getTimeouts() {
        return timeouts.sum();
    }

    /** Checks decided by the on-failure policy instead of Redis (failed round trips and open circuit). */
    public long getFallbacks() {
        return fallbacks.sum();
    }

    /** How many times the circuit opened. */
    public long getCircuitOpens() {
        return store.circuit().opens();
    }

    /** Scripts sent again in full after NOSCRIPT (server restart, SCRIPT FLUSH, new cluster node). */
    public long getScriptReloads() {
        return scriptReloads.sum();
    }

    /** Concurrency releases that could not reach Redis and were dropped after retries (their lease frees them). */
    public long getLostReleases() {
        return lostReleases.sum();
    }

    public long getLatencyP50Micros() {
        return latency.percentile(0.50);
    }

    public long getLatencyP90Micros() {
        return latency.percentile(0.90);
    }

    public long getLatencyP99Micros() {
        return latency.percentile(0.99);
    }

    public long getLatencyP999Micros() {
        return latency.percentile(0.999);
    }

    public long getLatencyMaxMicros() {
        return latency.percentile(1.0);
    }

    /** Any percentile (0..1) of the round-trip latency, in microseconds. */
    public long latencyMicros(double quantile) {
        return latency.percentile(quantile);
    }

    /** Starts the latency percentiles afresh (e.g. after a warm-up). */
    public void resetLatencies() {
        latency.reset();
    }

    @Override
    public String toString() {
        return "RedisStoreStats[type=" + type + ", state=" + getState() + ", roundTrips=" + getRoundTrips()
                + ", errors=" + getErrors() + ", timeouts=" + getTimeouts() + ", fallbacks=" + getFallbacks()
                + ", circuitOpens=" + getCircuitOpens() + ", p50=" + getLatencyP50Micros() + "us, p99="
                + getLatencyP99Micros() + "us]";
    }
}
