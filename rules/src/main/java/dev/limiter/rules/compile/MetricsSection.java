package dev.limiter.rules.compile;

import dev.limiter.rules.MetricsSpec;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;

/**
 * Validates the top-level {@code metrics:} section ({@code metrics: { prometheus: { listen: HOST:PORT } }}) into a
 * {@link MetricsSpec}, reporting a bad value at its position. The rules module opens nothing: the agent binds
 * the endpoint once at start-up.
 */
final class MetricsSection {

    private MetricsSection() {
    }

    /** The spec of {@code node} ({@link MetricsSpec#NONE} when absent); problems are recorded, never thrown. */
    static MetricsSpec read(YamlNode node, Problems problems) {
        if (node == null) {
            return MetricsSpec.NONE;
        }
        Fields fields = Fields.of(node, "metrics", problems, "prometheus");
        if (fields == null || !fields.has("prometheus")) {
            return MetricsSpec.NONE;
        }
        Fields prometheus = Fields.of(fields.get("prometheus"), "metrics.prometheus", problems, "listen");
        if (prometheus == null) {
            return MetricsSpec.NONE;
        }
        if (!prometheus.has("listen")) {
            prometheus.missing("listen");
            return MetricsSpec.NONE;
        }
        String listen = prometheus.string("listen");
        if (listen == null) {
            return MetricsSpec.NONE;
        }
        String problem = MetricsSpec.listenProblem(listen.trim());
        if (problem != null) {
            problems.add(prometheus.get("listen"), "metrics.prometheus.listen " + problem);
            return MetricsSpec.NONE;
        }
        return new MetricsSpec(listen.trim());
    }
}
