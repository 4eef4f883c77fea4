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
                overrides:
                  - name: gold
                    keys: [k-gold]
                    limits: [ { limit: 100, window: 1s } ]
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
        api.stats().waited().add(2);
        api.stats().waitNanos().add(1_500_000_042L);
        api.stats().waitRefused().increment();
        api.policy().overrides()[0].tier().stats().allowed().add(6);
        long internalErrors = LimiterBridge.internalErrors();
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
                # HELP limiter_keys_admitted_without_state_total Requests of new keys admitted without state \
                because the rule's key table was full of live state (on-full: allow).
                # TYPE limiter_keys_admitted_without_state_total counter
                limiter_keys_admitted_without_state_total{rule="api"} 0
                limiter_keys_admitted_without_state_total{rule="search.v2"} 0
                # HELP limiter_waits_total Calls admitted after waiting for their permit (on-limit: wait).
                # TYPE limiter_waits_total counter
                limiter_waits_total{rule="api"} 2
                limiter_waits_total{rule="search.v2"} 0
                # HELP limiter_wait_seconds_total The waits of those calls, summed.
                # TYPE limiter_wait_seconds_total counter
                limiter_wait_seconds_total{rule="api"} 1.500000042
                limiter_wait_seconds_total{rule="search.v2"} 0.000000000
                # HELP limiter_waiting Calls parked right now for their permit (bounded by max-waiters).
                # TYPE limiter_waiting gauge
                limiter_waiting{rule="api"} 0
                limiter_waiting{rule="search.v2"} 0
                # HELP limiter_wait_refused_total Calls that would have waited but were rejected at once (every \
                waiter slot taken, or an event loop, which never parks); also counted as rejected.
                # TYPE limiter_wait_refused_total counter
                limiter_wait_refused_total{rule="api"} 1
                limiter_wait_refused_total{rule="search.v2"} 0
                # HELP limiter_backoffs_total Answers 429 or 503 with Retry-After that paused a key of an \
                http-client rule (honor-retry-after).
                # TYPE limiter_backoffs_total counter
                limiter_backoffs_total{rule="api"} 0
                limiter_backoffs_total{rule="search.v2"} 0
                # HELP limiter_paused_keys Keys of an http-client rule paused by a Retry-After answer now.
                # TYPE limiter_paused_keys gauge
                limiter_paused_keys{rule="api"} 0
                limiter_paused_keys{rule="search.v2"} 0
                # HELP limiter_override_decisions_total Decisions per override of a rule (its plan), by outcome.
                # TYPE limiter_override_decisions_total counter
                limiter_override_decisions_total{rule="api",override="gold",outcome="allowed"} 6
                limiter_override_decisions_total{rule="api",override="gold",outcome="rejected"} 0
                limiter_override_decisions_total{rule="api",override="gold",outcome="would_reject"} 0
                # HELP limiter_internal_errors_total Failures of the agent's own code, caught, counted and logged; \
                the request went on as on-error says.
                # TYPE limiter_internal_errors_total counter
                limiter_internal_errors_total %d
                """.formatted(internalErrors));
    }

    @Test
    void anAdaptiveRuleShowsWhatItLearned() throws Exception {
        Files.writeString(holder.file(), """
                version: 1
                rules:
                  - id: pool
                    match: { http: { path: /work } }
                    strategy: adaptive
                    initial-limit: 10
                """);
        assertThat(holder.reload()).isTrue();
        Rule pool = holder.current().rule("pool");
        long[] out = Outcome.newArray();
        long now = System.nanoTime() + 1_000_000_000L; // a window's time after the key's state was made
        for (int i = 0; i < 10; i++) {
            assertThat(pool.limiter().tryAcquire("", out)).isTrue();
        }
        for (int i = 0; i < 9; i++) { // ten calls of 20 ms close one window; one is still running
            pool.limiter().release("", 20_000_000L, now);
        }
        assertThat(pool.limiter().tryAcquire("", out)).isTrue();
        pool.limiter().release("", 20_000_000L, now);

        String text = new LimiterMetrics(holder, null).render(ExpositionFormat.PROMETHEUS_TEXT);

        // all 10 ran at once at the no-load latency: the gradient grows the limit by sqrt(10)
        assertThat(text).contains("limiter_adaptive_limit{rule=\"pool\"} 13\n",
                "limiter_adaptive_in_flight{rule=\"pool\"} 1\n",
                "limiter_adaptive_no_load_seconds{rule=\"pool\"} 0.020000000\n",
                "limiter_adaptive_latency_seconds{rule=\"pool\"} 0.020000000\n");
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
                "limiter_keys_refused_total", "limiter_keys_admitted_without_state_total", "limiter_waits_total",
                "limiter_wait_seconds_total", "limiter_waiting", "limiter_wait_refused_total",
                "limiter_backoffs_total", "limiter_paused_keys",
                "limiter_adaptive_limit", "limiter_adaptive_in_flight", "limiter_adaptive_no_load_seconds",
                "limiter_adaptive_latency_seconds",
                "limiter_override_decisions_total", "limiter_internal_errors_total", "limiter_store_calls_total", "limiter_store_circuit_open",
                "limiter_store_latency_seconds", "limiter_store_latency_seconds_bucket",
                "limiter_store_latency_seconds_count"));
        String text = new LimiterMetrics(holder, null).render(ExpositionFormat.PROMETHEUS_TEXT);
        for (String line : text.split("\n")) {
            if (!line.startsWith("#")) {
                assertThat(written).as("the list above is complete").contains(line.split("[{ ]")[0]);
            }
        }
        String table = Files.readString(Path.of("../docs/metrics.md"));
        for (String name : written) {
            if (!name.endsWith("_bucket") && !name.endsWith("_count")) {
                assertThat(table).as("docs/metrics.md's table documents " + name).contains("| `" + name + "` |");
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
