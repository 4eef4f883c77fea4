package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import org.junit.jupiter.api.Test;

/** {@code on-full:} in {@code defaults:} and per rule, its default, and reloads that change it. */
class OnFullRulesTest {

    private final ManualClock clock = new ManualClock(1_000_000);
    private final long[] out = Outcome.newArray();

    private RuleSet load(String defaults, String rules, RuleSet previous) {
        return RuleSetLoader.parse("version: 1\n" + defaults + "rules:\n" + rules, "rules.yml", previous, clock);
    }

    private static String rule(String id, String extra) {
        return "  - id: " + id + "\n    match: { http: { path: /" + id + " } }\n    limit: 1\n    window: 1m\n"
                + "    max-keys: 2\n" + extra;
    }

    private static OnFull onFull(RuleSet rules, String id) {
        return ((LocalKeyedLimiter) rules.rule(id).limiter()).onFull();
    }

    @Test
    void withoutOnFullANewKeyIsRefusedWhileEverySlotHoldsLiveState() {
        RuleSet rules = load("", rule("a", ""), RuleSet.empty());
        assertThat(onFull(rules, "a")).isEqualTo(OnFull.REJECT);
        KeyedLimiter limiter = rules.rule("a").limiter();
        assertThat(limiter.tryAcquire("x", out)).isTrue();
        assertThat(limiter.tryAcquire("y", out)).isTrue();
        for (int i = 0; i < 20; i++) {
            assertThat(limiter.tryAcquire("new" + i, out)).isFalse();
            assertThat(limiter.tryAcquire("x", out)).as("x stays throttled").isFalse();
        }
        assertThat(limiter.keysRefused()).isEqualTo(20);
    }

    @Test
    void defaultsApplyAndRulesOverrideThem() {
        RuleSet rules = load("defaults:\n  on-full: allow\n", rule("d", "") + rule("o", "    on-full: evict-oldest\n")
                + rule("r", "    on-full: reject\n"), RuleSet.empty());
        assertThat(onFull(rules, "d")).isEqualTo(OnFull.ALLOW);
        assertThat(onFull(rules, "o")).isEqualTo(OnFull.EVICT);
        assertThat(onFull(rules, "r")).isEqualTo(OnFull.REJECT);
    }

    @Test
    void aReloadThatChangesOnFullKeepsTheStateAndAppliesTheNewChoice() {
        RuleSet first = load("", rule("a", "    on-full: evict-oldest\n"), RuleSet.empty());
        KeyedLimiter limiter = first.rule("a").limiter();
        assertThat(limiter.tryAcquire("x", out)).isTrue();
        assertThat(limiter.tryAcquire("y", out)).isTrue();

        RuleSet second = load("", rule("a", "    on-full: allow\n"), first);
        assertThat(second.rule("a").limiter()).isSameAs(limiter);
        assertThat(onFull(second, "a")).isEqualTo(OnFull.ALLOW);
        assertThat(limiter.tryAcquire("new", out)).as("admitted without state").isTrue();
        assertThat(limiter.keysAdmittedWithoutState()).isEqualTo(1);
        assertThat(limiter.tryAcquire("x", out)).as("x kept its spent budget").isFalse();

        RuleSet third = load("", rule("a", ""), second);
        assertThat(onFull(third, "a")).as("removed: the default again").isEqualTo(OnFull.REJECT);
        assertThat(limiter.tryAcquire("new", out)).isFalse();
        assertThat(limiter.keysRefused()).isEqualTo(1);
    }

    @Test
    void aBadFileLeavesTheChoiceInForce() {
        RuleSet first = load("", rule("a", "    on-full: allow\n"), RuleSet.empty());
        assertThatThrownBy(() -> load("", rule("a", "    on-full: evict\n"), first))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining("rules.yml:8:14: on-full must be one of reject, allow, evict-oldest,"
                        + " not 'evict' (did you mean 'evict-oldest'?)");
        assertThat(onFull(first, "a")).isEqualTo(OnFull.ALLOW);
    }
}
