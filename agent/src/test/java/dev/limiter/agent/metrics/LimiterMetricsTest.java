package dev.limiter.agent.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The limiter's metrics read from a real rule set: names, labels and values as the counters hold them. */
class LimiterMetricsTest {

    private static final String RULES = """
            version: 1
            reload: { watch: false }
            rules:
              - id: api
                match: { http: { path: /api/* } }
                key: header:X-Client
                limit: 2
                window: 1h
              - id: search.v2
                match: { http: { path: /search } }
                limit: 7
                window: 1m
                mode: dry-run
            """;

    @TempDir
    Path dir;

    private RuleSetHolder holder;

    @BeforeEach
    void open() throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, RULES);
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
    }

    @AfterEach
    void close() {
        LimiterBridge.setEnabled(true);
        holder.close();
    }

    @Test
    void everyRuleAndCounterInPrometheusText() throws Exception {
        Rule api = holder.current().rule("api");
        long[] out = Outcome.newArray();
        api.limiter().tryAcquire("a", out);
        api.limiter().tryAcquire("b", out);
        api.stats().allowed().add(5);
        api.stats().rejected().add(3);
        api.stats().errors().increment();
        holder.current().rule("search.v2").stats().wouldReject().add(4);
        Files.writeString(holder.file(), "version: 1\nrules: oops\n");
        assertThat(holder.reload()).isFalse();
        LimiterBridge.setEnabled(false);

        String text = new LimiterMetrics(holder, null).render(ExpositionFormat.PROMETHEUS_TEXT);

        assertThat(text).isEqualTo("""
                # HELP limiter_enabled 1 while the limiter decides, 0 while its kill switch is off.
                # TYPE limiter_enabled gauge
                limiter_enabled 0
                # HELP limiter_rules Rules in force.
                # TYPE limiter_rules gauge
                limiter_rules 2
                # HELP limiter_reloads_total Reloads of the rules file since start, by result (failed: previous \
                rules kept).
                # TYPE limiter_reloads_total counter
                limiter_reloads_total{result="ok"} 0
                limiter_reloads_total{result="failed"} 1
                # HELP limiter_decisions_total Decisions per rule, by outcome (would_reject: dry-run rules; error: \
                the rule failed and on-error decided).
                # TYPE limiter_decisions_total counter
                limiter_decisions_total{rule="api",outcome="allowed"} 5
                limiter_decisions_total{rule="api",outcome="rejected"} 3
                limiter_decisions_total{rule="api",outcome="would_reject"} 0
                limiter_decisions_total{rule="api",outcome="exempt"} 0
                limiter_decisions_total{rule="api",outcome="error"} 1
                limiter_decisions_total{rule="search.v2",outcome="allowed"} 0
                limiter_decisions_total{rule="search.v2",outcome="rejected"} 0
                limiter_decisions_total{rule="search.v2",outcome="would_reject"} 4
                limiter_decisions_total{rule="search.v2",outcome="exempt"} 0
                limiter_decisions_total{rule="search.v2",outcome="error"} 0
                # HELP limiter_active_keys Keys with live state in this JVM, per rule (local rules only).
                # TYPE limiter_active_keys gauge
                limiter_active_keys{rule="api"} 2
                limiter_active_keys{rule="search.v2"} 0
                # HELP limiter_limit The limit in force per rule (requests per window, or concurrent calls).
                # TYPE limiter_limit gauge
                limiter_limit{rule="api"} 2
                limiter_limit{rule="search.v2"} 7
                # HELP limiter_keys_refused_total Requests of new keys refused because the rule's key table was \
                full of live state.
                # TYPE limiter_keys_refused_total counter
                limiter_keys_refused_total{rule="api"} 0
                limiter_keys_refused_total{rule="search.v2"} 0
                """);
    }

    @Test
    void openMetricsCarriesTheSameSamplesAndEnds() {
        holder.current().rule("api").stats().allowed().add(9);

        String text = new LimiterMetrics(holder, null).render(ExpositionFormat.OPENMETRICS);

        assertThat(text).contains("# TYPE limiter_decisions counter\n",
                "limiter_decisions_total{rule=\"api\",outcome=\"allowed\"} 9\n", "# TYPE limiter_reloads counter\n",
                "limiter_enabled 1\n").endsWith("\n# EOF\n").doesNotContain("limiter_store_");
    }

    /** Every metric name the dashboard and the user docs use is one the endpoint writes (a typo shows here). */
    @Test
    void theDashboardAndTheDocsNameOnlyMetricsThatExist() throws Exception {
        java.util.Set<String> written = new java.util.TreeSet<>(java.util.List.of("limiter_enabled", "limiter_rules",
                "limiter_reloads_total", "limiter_decisions_total", "limiter_active_keys", "limiter_limit",
                "limiter_keys_refused_total", "limiter_store_calls_total", "limiter_store_circuit_open",
                "limiter_store_latency_seconds", "limiter_store_latency_seconds_bucket",
                "limiter_store_latency_seconds_count"));
        String text = new LimiterMetrics(holder, null).render(ExpositionFormat.PROMETHEUS_TEXT);
        for (String line : text.split("\n")) {
            if (!line.startsWith("#")) {
                assertThat(written).as("the list above is complete").contains(line.split("[{ ]")[0]);
            }
        }
        for (String doc : new String[] {"../docs/grafana-dashboard.json", "../docs/metrics.md"}) {
            java.util.regex.Matcher names = java.util.regex.Pattern.compile("\\blimiter_[a-z_]+")
                    .matcher(Files.readString(Path.of(doc)));
            int found = 0;
            while (names.find()) {
                assertThat(written).as(doc + " names " + names.group()).contains(names.group());
                found++;
            }
            assertThat(found).as(doc).isGreaterThan(5);
        }
    }
}
