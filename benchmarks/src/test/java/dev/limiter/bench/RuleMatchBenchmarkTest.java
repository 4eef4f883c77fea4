package dev.limiter.bench;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

/** The rule-matching benchmark measures a real 1,000-rule set: the hit path finds exactly its rule, the miss none. */
class RuleMatchBenchmarkTest {

    @Test
    void generatedFileCompilesToAThousandHttpRules() {
        RuleMatchBenchmark benchmark = new RuleMatchBenchmark();
        benchmark.setUp();

        assertThat(benchmark.rules().rules()).hasSize(RuleMatchBenchmark.RULES);
    }

    @Test
    void hitPathMatchesOnlyItsRuleAndMissPathMatchesNone() {
        RuleMatchBenchmark benchmark = new RuleMatchBenchmark();
        benchmark.setUp();
        RuleMatchBenchmark.MatchOut thread = new RuleMatchBenchmark.MatchOut();
        thread.setUp(benchmark);

        assertThat(benchmark.matchHttpHit(thread)).isEqualTo(1);
        assertThat(thread.matched[0].id()).isEqualTo("api-500");
        assertThat(benchmark.matchHttpMiss(thread)).isZero();
    }
}
