package dev.limiter.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The two text formats, byte for byte: family names, escaping, and OpenMetrics' end marker. */
class MetricsWriterTest {

    private static String write(ExpositionFormat format) {
        MetricsWriter w = new MetricsWriter(format);
        w.counter("limiter_decisions", "Decisions by outcome.");
        w.sample("limiter_decisions_total", "rule", "a", "outcome", "allowed", 3);
        w.gauge("limiter_rules", "Rules in force.");
        w.sample("limiter_rules", 2);
        w.histogram("limiter_store_latency_seconds", "Round trips.");
        w.sample("limiter_store_latency_seconds_bucket", "le", "0.000064", 1);
        w.sample("limiter_store_latency_seconds_bucket", "le", "+Inf", 4);
        w.sample("limiter_store_latency_seconds_count", 4);
        return w.finish();
    }

    @Test
    void prometheusTextNamesCountersWithTheirTotal() {
        assertThat(write(ExpositionFormat.PROMETHEUS_TEXT)).isEqualTo("""
                # HELP limiter_decisions_total Decisions by outcome.
                # TYPE limiter_decisions_total counter
                limiter_decisions_total{rule="a",outcome="allowed"} 3
                # HELP limiter_rules Rules in force.
                # TYPE limiter_rules gauge
                limiter_rules 2
                # HELP limiter_store_latency_seconds Round trips.
                # TYPE limiter_store_latency_seconds histogram
                limiter_store_latency_seconds_bucket{le="0.000064"} 1
                limiter_store_latency_seconds_bucket{le="+Inf"} 4
                limiter_store_latency_seconds_count 4
                """);
    }

    @Test
    void openMetricsNamesCounterFamiliesWithoutTotalAndEnds() {
        assertThat(write(ExpositionFormat.OPENMETRICS)).isEqualTo("""
                # HELP limiter_decisions Decisions by outcome.
                # TYPE limiter_decisions counter
                limiter_decisions_total{rule="a",outcome="allowed"} 3
                # HELP limiter_rules Rules in force.
                # TYPE limiter_rules gauge
                limiter_rules 2
                # HELP limiter_store_latency_seconds Round trips.
                # TYPE limiter_store_latency_seconds histogram
                limiter_store_latency_seconds_bucket{le="0.000064"} 1
                limiter_store_latency_seconds_bucket{le="+Inf"} 4
                limiter_store_latency_seconds_count 4
                # EOF
                """);
    }

    @Test
    void labelValuesAndHelpAreEscaped() {
        MetricsWriter text = new MetricsWriter(ExpositionFormat.PROMETHEUS_TEXT);
        text.gauge("g", "a \\ b \"q\"\nnext");
        text.sample("g", "rule", "x\\y\"z\nw", 1);
        assertThat(text.finish()).isEqualTo("# HELP g a \\\\ b \"q\"\\nnext\n# TYPE g gauge\n"
                + "g{rule=\"x\\\\y\\\"z\\nw\"} 1\n");

        MetricsWriter open = new MetricsWriter(ExpositionFormat.OPENMETRICS);
        open.gauge("g", "say \"hi\"");
        assertThat(open.finish()).startsWith("# HELP g say \\\"hi\\\"\n");
    }

    @Test
    void theAcceptHeaderChoosesTheFormat() {
        assertThat(ExpositionFormat.forAccept(null)).isEqualTo(ExpositionFormat.PROMETHEUS_TEXT);
        assertThat(ExpositionFormat.forAccept("text/plain;version=0.0.4;q=0.5,*/*;q=0.1"))
                .isEqualTo(ExpositionFormat.PROMETHEUS_TEXT);
        assertThat(ExpositionFormat.forAccept("application/openmetrics-text;version=1.0.0,text/plain;q=0.5"))
                .isEqualTo(ExpositionFormat.OPENMETRICS);
        assertThat(ExpositionFormat.OPENMETRICS.contentType()).startsWith("application/openmetrics-text;");
        assertThat(ExpositionFormat.PROMETHEUS_TEXT.contentType()).startsWith("text/plain; version=0.0.4");
    }

    @Test
    void latencyBoundsAreWrittenAsPlainSeconds() {
        assertThat(LimiterMetrics.seconds(64)).isEqualTo("0.000064");
        assertThat(LimiterMetrics.seconds(1024)).isEqualTo("0.001024");
        assertThat(LimiterMetrics.seconds(1_000_000)).isEqualTo("1.0");
        assertThat(LimiterMetrics.seconds(1 << 20)).isEqualTo("1.048576");
    }
}
