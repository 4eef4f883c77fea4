package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.SlidingLogStrategy;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import org.junit.jupiter.api.Test;

/**
 * {@code strategy: sliding-log} in rules: the limits it runs (up to its bound), a cost, several limits and waiting;
 * what it refuses, with its place.
 */
class SlidingLogRulesTest {

    private final ManualClock clock = new ManualClock(1_767_225_600_000L);
    private final long[] out = Outcome.newArray();

    private RuleSet load(String rule) {
        return RuleSetLoader.parse("version: 1\nrules:\n  - id: r\n    match: { method: { class: com.acme.Mailer,"
                + " method: send } }\n    strategy: sliding-log\n" + rule, "rules.yml", null, clock);
    }

    /** The one error of loading {@code rule}, as {@code line:column message}. */
    private String error(String rule) {
        RulesException e = catchThrowableOfType(() -> load(rule), RulesException.class);
        assertThat(e).as("refused").isNotNull();
        assertThat(e.errors()).hasSize(1);
        RulesError error = e.errors().get(0);
        return error.line() + ":" + error.column() + " " + error.message();
    }

    @Test
    void aRuleRunsTheExactLogUpToTheBound() {
        Rule rule = load("    limit: 3\n    window: 1m\n").rule("r");
        assertThat(rule.limiter().strategy()).isSameAs(SlidingLogStrategy.INSTANCE);
        int admitted = 0;
        for (int i = 0; i < 10; i++) {
            admitted += rule.limiter().tryAcquire("k", out) ? 1 : 0;
        }
        assertThat(admitted).isEqualTo(3);
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(60_000);
        assertThat(load("    limit: 10000\n    window: 1s\n").rule("r").limiter().config().limit()).isEqualTo(10_000);
    }

    @Test
    void aLimitAboveTheBoundIsRefusedWhereItIsWritten() {
        assertThat(error("    limit: 10001\n    window: 1s\n")).isEqualTo("6:12 sliding-log keeps one 8-byte entry per"
                + " permit: a limit of at most 10000 (use sliding-window or token-bucket above that): 10001");
    }

    @Test
    void aCostSeveralLimitsAndWaitingAreSupportedACapacityIsNot() {
        assertThat(load("    limit: 10\n    window: 1s\n    cost: 3\n").rule("r").policy().cost()).isEqualTo(3);
        assertThat(load("    limits:\n      - { limit: 2, window: 1s }\n      - { limit: 5, window: 1m }\n")
                .rule("r")).isNotNull();
        assertThat(load("    limit: 10\n    window: 1s\n    on-limit: wait\n    max-wait: 2s\n").rule("r").policy()
                .waits()).isTrue();
        assertThat(error("    limit: 10\n    window: 1s\n    capacity: 20\n"))
                .isEqualTo("8:15 capacity applies to token-bucket and leaky-bucket, not sliding-log");
    }
}
