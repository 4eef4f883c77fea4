package dev.limiter.agent.metrics;

/**
 * The two text formats a scraper may ask for: Prometheus' text format 0.0.4 (the default) and OpenMetrics 1.0,
 * chosen by the request's {@code Accept} header as Prometheus' own client libraries choose it.
 */
enum ExpositionFormat {

    /** Prometheus text format 0.0.4: counters' families are named with their {@code _total}. */
    PROMETHEUS_TEXT("text/plain; version=0.0.4; charset=utf-8"),
    /** OpenMetrics 1.0: counters' families without {@code _total}, and a closing {@code # EOF}. */
    OPENMETRICS("application/openmetrics-text; version=1.0.0; charset=utf-8");

    private final String contentType;

    ExpositionFormat(String contentType) {
        this.contentType = contentType;
    }

    String contentType() {
        return contentType;
    }

    /** OpenMetrics when {@code accept} names it (Prometheus sends it first, with a q-value), else 0.0.4. */
    static ExpositionFormat forAccept(String accept) {
        return accept != null && accept.contains("application/openmetrics-text") ? OPENMETRICS : PROMETHEUS_TEXT;
    }
}
