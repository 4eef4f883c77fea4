package dev.limiter.agent.cli;

/**
 * Where the rules keep their state, as {@code dev.limiter:type=Store} shows it: {@code local}, or a Redis store
 * with its health and round-trip latency. Numbers not reported are {@link RuleStatus#UNKNOWN}.
 *
 * @param state {@code up}, {@code fallback} (Redis unreachable, on-failure applies) or {@code down}
 */
record StoreStatus(String type, String state, String uri, String onFailure, long roundTrips, long errors,
        long timeouts, long fallbacks, long circuitOpens, long latencyP50Micros, long latencyP99Micros,
        long latencyMaxMicros) {

    boolean isLocal() {
        return type.isEmpty() || type.equals("local");
    }
}
