package dev.limiter.agent.metrics;

/**
 * Writes metric families in either text format ({@link ExpositionFormat}): the {@code # HELP}/{@code # TYPE}
 * lines, samples with escaped label values, and OpenMetrics' {@code # EOF}.
 *
 * <p>A counter is declared by its base name ({@code limiter_decisions}); its samples carry {@code _total}. The
 * 0.0.4 format names the family with the suffix, OpenMetrics without it. Values are whole numbers here, written
 * as such, but for durations in seconds ({@link #sampleSeconds}).
 */
final class MetricsWriter {

    private final StringBuilder out = new StringBuilder(4096);
    private final ExpositionFormat format;

    MetricsWriter(ExpositionFormat format) {
        this.format = format;
    }

    /** Declares a counter family; its samples are named {@code base + "_total"}. */
    void counter(String base, String help) {
        header(format == ExpositionFormat.OPENMETRICS ? base : base + "_total", "counter", help);
    }

    void gauge(String name, String help) {
        header(name, "gauge", help);
    }

    void histogram(String name, String help) {
        header(name, "histogram", help);
    }

    private void header(String family, String type, String help) {
        out.append("# HELP ").append(family).append(' ');
        escapeHelp(help);
        out.append('\n').append("# TYPE ").append(family).append(' ').append(type).append('\n');
    }

    void sample(String name, long value) {
        out.append(name).append(' ').append(value).append('\n');
    }

    void sample(String name, String label, String labelValue, long value) {
        out.append(name).append('{');
        label(label, labelValue);
        out.append("} ").append(value).append('\n');
    }

    void sample(String name, String label1, String value1, String label2, String value2, long value) {
        out.append(name).append('{');
        label(label1, value1);
        out.append(',');
        label(label2, value2);
        out.append("} ").append(value).append('\n');
    }

    void sample(String name, String label1, String value1, String label2, String value2, String label3,
            String value3, long value) {
        out.append(name).append('{');
        label(label1, value1);
        out.append(',');
        label(label2, value2);
        out.append(',');
        label(label3, value3);
        out.append("} ").append(value).append('\n');
    }

    /** A duration of {@code nanos} written in seconds (the unit Prometheus names want), to the nanosecond. */
    void sampleSeconds(String name, String label, String labelValue, long nanos) {
        out.append(name).append('{');
        label(label, labelValue);
        out.append("} ").append(nanos / 1_000_000_000L).append('.');
        String fraction = Long.toString(nanos % 1_000_000_000L);
        for (int i = fraction.length(); i < 9; i++) {
            out.append('0');
        }
        out.append(fraction).append('\n');
    }

    private void label(String name, String value) {
        out.append(name).append("=\"");
        for (int i = 0; i < value.length(); i++) {
            char c = value.charAt(i);
            switch (c) {
                case '\\' -> out.append("\\\\");
                case '"' -> out.append("\\\"");
                case '\n' -> out.append("\\n");
                default -> out.append(c);
            }
        }
        out.append('"');
    }

    /** HELP text: backslash and line feed escaped in both formats (and the double quote in OpenMetrics). */
    private void escapeHelp(String help) {
        for (int i = 0; i < help.length(); i++) {
            char c = help.charAt(i);
            if (c == '\\') {
                out.append("\\\\");
            } else if (c == '\n') {
                out.append("\\n");
            } else if (c == '"' && format == ExpositionFormat.OPENMETRICS) {
                out.append("\\\"");
            } else {
                out.append(c);
            }
        }
    }

    /** The text so far, closed as the format wants it. */
    String finish() {
        if (format == ExpositionFormat.OPENMETRICS) {
            out.append("# EOF\n");
        }
        return out.toString();
    }
}
