package dev.limiter.agent.jmx;

/**
 * Where the rules keep their state, registered as {@code dev.limiter:type=Store}: the Redis store the rules in
 * force use (or {@code local}), its health and its round-trip latency.
 *
 * <p>An MXBean for the same reason as the others: open types only, readable without the agent's classes. It
 * always describes the store of the rules in force, so a reload that changes the {@code store:} section shows
 * the new connection's state and counters.
 */
public interface StoreMXBean {

    /** {@code local}, {@code redis} or {@code redis-cluster}. */
    String getType();

    /** {@code up}, {@code fallback} (Redis unreachable: on-failure applies) or {@code down} (closed). */
    String getState();

    /** The store's URIs, passwords hidden; empty for local. */
    String getUri();

    /** {@code local}, {@code allow} or {@code reject}; empty for local. */
    String getOnFailure();

    /** Round trips to Redis. */
    long getRoundTrips();

    /** Checks that failed on Redis (each applied on-failure). */
    long getErrors();

    /** Errors that were timeouts. */
    long getTimeouts();

    /** Checks decided by on-failure (errors plus checks made while the circuit was open). */
    long getFallbacks();

    /** Times Redis became unreachable. */
    long getCircuitOpens();

    /** Round-trip latency percentiles in microseconds (a check as the request thread sees it). */
    long getLatencyP50Micros();

    long getLatencyP90Micros();

    long getLatencyP99Micros();

    long getLatencyP999Micros();

    long getLatencyMaxMicros();

    /** Starts the latency percentiles afresh. */
    void resetLatencies();
}
