package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.adaptive.AdaptiveSettings;
import dev.limiter.core.strategy.adaptive.AdaptiveStrategy;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * {@code strategy: adaptive} in rules: nothing else needed, its four options, what it refuses (a fixed limit, a
 * capacity, several limits, a cost, waiting, Redis) and its options on another strategy, each where it is written.
 */
class AdaptiveRulesTest {

    private final ManualClock clock = new ManualClock(1_767_225_600_000L);
    private final long[] out = Outcome.newArray();

    private RuleSet load(String rule) {
        return load("", rule);
    }

    private RuleSet load(String top, String rule) {
        return RuleSetLoader.parse("version: 1\n" + top + "rules:\n  - id: r\n    match: { http: { path: /api/** } }\n"
                + rule, "rules.yml", null, clock);
    }

    /** The errors of loading {@code rule}, each as {@code line:column message}. */
    private List<String> errors(String top, String rule) {
        RulesException e = catchThrowableOfType(() -> load(top, rule), RulesException.class);
        assertThat(e).as("refused").isNotNull();
        return e.errors().stream().map(error -> error.line() + ":" + error.column() + " " + error.message())
                .toList();
    }

    private List<String> errors(String rule) {
        return errors("", rule);
    }

    @Test
    void theStrategyAloneIsARuleWithTheDefaults() {
        Rule rule = load("    strategy: adaptive\n").rule("r");
        assertThat(rule.limiter().strategy()).isSameAs(AdaptiveStrategy.INSTANCE);
        assertThat(rule.limiter().config().limit()).as("the ceiling").isEqualTo(AdaptiveSettings.DEFAULT_MAX_LIMIT);
        int admitted = 0;
        for (int i = 0; i < 30; i++) {
            admitted += rule.limiter().tryAcquire("k", out) ? 1 : 0;
        }
        assertThat(admitted).as("the initial limit, nothing released").isEqualTo(20);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1_000);
    }

    @Test
    void itsOptionsAreRead() {
        Rule rule = load("    strategy: adaptive\n    algorithm: vegas\n    min-limit: 2\n    max-limit: 50\n"
                + "    initial-limit: 5\n").rule("r");
        assertThat(((AdaptiveStrategy) rule.limiter().strategy()).settings())
                .isEqualTo(new AdaptiveSettings("vegas", 2, 5));
        assertThat(rule.limiter().config().limit()).isEqualTo(50);
        assertThat(((AdaptiveStrategy) load("    strategy: adaptive\n    max-limit: 8\n").rule("r").limiter()
                .strategy()).settings().initialLimit()).as("the default start, within the bounds").isEqualTo(8);
    }

    @Test
    void whatItCannotDoIsRefusedWhereItIsWritten() {
        assertThat(errors("    strategy: adaptive\n    limit: 10\n")).containsExactly("6:12 an adaptive rule finds"
                + " its own limit: bound it with 'max-limit' (and 'min-limit') instead of 'limit'");
        assertThat(errors("    strategy: adaptive\n    capacity: 10\n"))
                .containsExactly("6:15 capacity applies to token-bucket and leaky-bucket, not adaptive");
        assertThat(errors("    strategy: adaptive\n    algorithm: aimd\n")).containsExactly(
                "6:16 algorithm must be one of gradient, vegas, not 'aimd'");
        assertThat(errors("    strategy: adaptive\n    min-limit: 30\n    max-limit: 10\n"))
                .containsExactly("6:16 min-limit 30 is above max-limit 10");
        assertThat(errors("    strategy: adaptive\n    initial-limit: 0\n"))
                .containsExactly("6:20 initial-limit must be from 1 to 2147483647, not 0");
        assertThat(errors("    strategy: adaptive\n    min-limit: 5\n    initial-limit: 2\n"))
                .containsExactly("7:20 initial-limit 2 is outside min-limit 5 and max-limit 1000");
        assertThat(errors("    strategy: adaptive\n    on-limit: wait\n    max-wait: 1s\n    max-waiters: 5\n"))
                .hasSize(1).allMatch(error -> error.contains("wait"));
        assertThat(errors("    strategy: adaptive\n    cost: 2\n")).hasSize(1);
        assertThat(errors("store: { type: redis, uri: 'redis://127.0.0.1:6379' }\n", "    strategy: adaptive\n    store: redis\n"))
                .anyMatch(error -> error.endsWith("an adaptive limit is learned from this JVM's own latencies: it"
                        + " needs 'store: local'"));
    }

    @Test
    void itsOptionsOnAnotherStrategyAreRefused() {
        assertThat(errors("    strategy: concurrency\n    limit: 10\n    max-limit: 20\n"))
                .containsExactly("7:16 'max-limit' applies to 'strategy: adaptive' only");
        assertThat(errors("    limit: 10\n    window: 1s\n    algorithm: vegas\n"))
                .containsExactly("7:16 'algorithm' applies to 'strategy: adaptive' only");
    }

    @Test
    void aReloadWithTheSameSettingsKeepsTheLearnedState() throws Exception {
        RuleSet first = load("    strategy: adaptive\n    algorithm: vegas\n");
        first.rule("r").limiter().tryAcquire("k", out);
        RuleSet second = RuleSetLoader.parse("version: 1\nrules:\n  - id: r\n    match: { http: { path: /api/** } }\n"
                + "    strategy: adaptive\n    algorithm: vegas\n", "rules.yml", first, clock);
        assertThat(second.rule("r").limiter()).isSameAs(first.rule("r").limiter());
    }
}
