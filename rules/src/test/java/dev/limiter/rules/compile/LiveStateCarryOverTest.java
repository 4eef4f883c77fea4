package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.Mode;
import dev.limiter.rules.OnError;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.yaml.YamlTreeReader;
import org.junit.jupiter.api.Test;

/** What a reload keeps: state follows the rule id while the strategy stays; new limits apply to it. */
class LiveStateCarryOverTest {

    private final ManualClock clock = new ManualClock(1_000_000);
    private final long[] out = Outcome.newArray();

    private RuleSet load(String rules, RuleSet previous) {
        return RuleSetLoader.parse("version: 1\nrules:\n" + rules, "rules.yml", previous, clock);
    }

    private static String rule(String id, String strategy, int limit, String extra) {
        return "  - id: " + id + "\n    match: { http: { path: /" + id + " } }\n    strategy: " + strategy
                + "\n    limit: " + limit + "\n    window: 1m\n" + extra;
    }

    private int admitted(KeyedLimiter limiter, int attempts) {
        int admitted = 0;
        for (int i = 0; i < attempts; i++) {
            if (limiter.tryAcquire("k", out)) {
                admitted++;
            }
        }
        return admitted;
    }

    @Test
    void aSurvivingRuleKeepsItsLimiterCountersAndStatsAndGetsTheNewLimit() {
        RuleSet first = load(rule("a", "fixed-window", 2, ""), RuleSet.empty());
        Rule a = first.rule("a");
        assertThat(admitted(a.limiter(), 3)).isEqualTo(2);
        a.stats().allowed().add(2);

        RuleSet second = load(rule("a", "fixed-window", 3, ""), first);
        Rule a2 = second.rule("a");
        assertThat(a2).isNotSameAs(a);
        assertThat(a2.limiter()).isSameAs(a.limiter());
        assertThat(a2.stats()).isSameAs(a.stats());
        assertThat(a2.limiter().config().limit()).isEqualTo(3);
        // the two permits taken in this window still count: one more fits under the new limit
        assertThat(admitted(a2.limiter(), 3)).isEqualTo(1);
        assertThat(a2.stats().allowed().sum()).isEqualTo(2);
    }

    @Test
    void aPreparedReloadLeavesTheRulesInForceAsTheyAreUntilItIsCommitted() {
        RuleSet first = load(rule("a", "fixed-window", 2, "") + rule("b", "fixed-window", 1, ""), RuleSet.empty());
        Rule a = first.rule("a");
        assertThat(admitted(a.limiter(), 2)).isEqualTo(2);
        first.rule("a").setMode(Mode.DRY_RUN);

        FileProblems problems = new FileProblems("rules.yml");
        RulesCompiler.Prepared prepared = RulesCompiler.prepare(YamlTreeReader.read("version: 1\nrules:\n"
                + rule("a", "fixed-window", 50, "    mode: dry-run\n"), problems), null, first, clock, problems,
                LimiterFactory.LOCAL);
        Rule a2 = prepared.rules().rule("a");
        // the new set is whole and states its new limit ...
        assertThat(a2.limiter()).isSameAs(a.limiter());
        assertThat(a2.policyHeader()).isEqualTo("\"a\";q=50;w=60");
        assertThat(prepared.rules().rule("b")).isNull();
        // ... while the rules in force still decide with their own: limit, header, mode
        assertThat(a.limiter().config().limit()).isEqualTo(2);
        assertThat(admitted(a.limiter(), 1)).isZero();
        assertThat(a.policyHeader()).isEqualTo("\"a\";q=2;w=60");
        assertThat(a.state().modeOverride()).isEqualTo(Mode.DRY_RUN);

        assertThat(prepared.commit()).isSameAs(prepared.rules());
        assertThat(a2.limiter().config().limit()).isEqualTo(50);
        assertThat(admitted(a2.limiter(), 1)).isEqualTo(1);
        assertThat(a2.state().modeOverride()).as("the file changed the mode: the run-time override goes on commit")
                .isNull();
        assertThat(a2.mode()).isEqualTo(Mode.DRY_RUN);
    }

    @Test
    void aChangedStrategyStartsFresh() {
        RuleSet first = load(rule("a", "fixed-window", 1, ""), RuleSet.empty());
        assertThat(admitted(first.rule("a").limiter(), 2)).isEqualTo(1);

        RuleSet second = load(rule("a", "token-bucket", 1, ""), first);
        assertThat(second.rule("a").limiter()).isNotSameAs(first.rule("a").limiter());
        assertThat(second.rule("a").stats()).isNotSameAs(first.rule("a").stats());
        assertThat(second.rule("a").strategyName()).isEqualTo("token-bucket");
        assertThat(admitted(second.rule("a").limiter(), 2)).isEqualTo(1);
    }

    @Test
    void aChangedMaxKeysStartsFresh() {
        RuleSet first = load(rule("a", "fixed-window", 1, ""), RuleSet.empty());
        RuleSet second = load(rule("a", "fixed-window", 1, "    max-keys: 10\n"), first);
        assertThat(second.rule("a").limiter()).isNotSameAs(first.rule("a").limiter());
        assertThat(second.rule("a").maxKeys()).isEqualTo(10);
    }

    @Test
    void removedRulesAreGoneAndNewOnesStartFresh() {
        RuleSet first = load(rule("a", "fixed-window", 1, "") + rule("b", "fixed-window", 1, ""), RuleSet.empty());
        RuleSet second = load(rule("b", "fixed-window", 1, "") + rule("c", "fixed-window", 1, ""), first);
        assertThat(second.rule("a")).isNull();
        assertThat(second.rule("b").limiter()).isSameAs(first.rule("b").limiter());
        assertThat(second.rule("c").limiter()).isNotNull();
        assertThat(second.rules()).extracting(Rule::id).containsExactly("b", "c");
    }

    @Test
    void aRunTimeModeOverrideSurvivesUntilTheFileChangesTheMode() {
        RuleSet first = load(rule("a", "fixed-window", 1, ""), RuleSet.empty());
        first.rule("a").setMode(Mode.DRY_RUN);
        assertThat(first.rule("a").mode()).isEqualTo(Mode.DRY_RUN);
        assertThat(first.rule("a").fileMode()).isEqualTo(Mode.ENFORCE);

        RuleSet second = load(rule("a", "fixed-window", 5, ""), first);
        assertThat(second.rule("a").mode()).isEqualTo(Mode.DRY_RUN);

        RuleSet third = load(rule("a", "fixed-window", 5, "    mode: dry-run\n"), second);
        third.rule("a").setMode(Mode.ENFORCE);
        RuleSet fourth = load(rule("a", "fixed-window", 5, "    mode: enforce\n"), third);
        assertThat(fourth.rule("a").mode()).isEqualTo(Mode.ENFORCE);
        fourth.rule("a").setMode(null);
        assertThat(fourth.rule("a").mode()).isEqualTo(Mode.ENFORCE);
    }

    @Test
    void aFailedLoadDoesNotTouchTheRunningLimiters() {
        RuleSet first = load(rule("a", "fixed-window", 2, ""), RuleSet.empty());
        assertThatThrownBy(() -> load(rule("a", "fixed-window", 9, "") + "  - id: broken\n", first))
                .isInstanceOf(RulesException.class);
        assertThat(first.rule("a").limiter().config().limit()).isEqualTo(2);
    }

    @Test
    void aReloadThatASlidingWindowRefusesLeavesTheSurvivingLimitsAsTheyWere() {
        RuleSet first = load(rule("a", "fixed-window", 2, ""), RuleSet.empty());
        KeyedLimiter a = first.rule("a").limiter();
        LimitConfig before = a.config();
        assertThat(admitted(a, 1)).isEqualTo(1);

        // 3,000,000 is a valid limit in general, but the sliding window packs its counts in 21 bits
        assertThatThrownBy(() -> load(rule("a", "fixed-window", 9, "")
                + rule("b", "sliding-window", 3_000_000, ""), first))
                .isInstanceOf(RulesException.class)
                .hasMessage("rules.yml:11:12: sliding-window supports a limit of at most 2097151 per window:"
                        + " 3000000");

        assertThat(a.config()).isSameAs(before);
        assertThat(first.rule("a").policyHeader()).isEqualTo("\"a\";q=2;w=60");
        assertThat(admitted(a, 3)).isEqualTo(1);
    }

    @Test
    void aCustomStrategyThatRefusesItsLimitsFailsTheReloadAtTheValueItRefused() {
        RuleSet first = load(rule("a", SmallQuotaStrategy.NAME, 5, ""), RuleSet.empty());
        LimitConfig before = first.rule("a").limiter().config();

        assertThatThrownBy(() -> load(rule("a", SmallQuotaStrategy.NAME, 9, "")
                + rule("b", SmallQuotaStrategy.NAME, 5_000, ""), first))
                .isInstanceOf(RulesException.class)
                .hasMessage("rules.yml:11:12: small-quota counts at most 1000 per window, not 5000");
        assertThat(first.rule("a").limiter().config()).isSameAs(before);

        // the same limit without the capacity passes, so the capacity is what the strategy refused
        assertThatThrownBy(() -> load(rule("a", SmallQuotaStrategy.NAME, 9, "    capacity: 50\n"), first))
                .isInstanceOf(RulesException.class)
                .hasMessage("rules.yml:8:15: small-quota allows a capacity of at most twice the limit, not 50");
        assertThat(first.rule("a").limiter().config()).isSameAs(before);

        RuleSet second = load(rule("a", SmallQuotaStrategy.NAME, 9, "    capacity: 18\n"), first);
        assertThat(second.rule("a").limiter()).isSameAs(first.rule("a").limiter());
        assertThat(second.rule("a").limiter().config().capacity()).isEqualTo(18);
    }

    @Test
    void aNewLimiterThatCannotBeCreatedFailsTheReloadBeforeAnyLimitChanges() {
        LimiterFactory storeDownForB = (id, store, strategy, config, maxKeys, onFull) -> {
            if (id.equals("b")) {
                throw new IllegalStateException("store unreachable");
            }
            return LimiterFactory.LOCAL.create(id, store, strategy, config, maxKeys, onFull);
        };
        RuleSet first = RuleSetLoader.parse("version: 1\nrules:\n" + rule("a", "fixed-window", 2, ""), "rules.yml",
                RuleSet.empty(), clock, storeDownForB);
        LimitConfig before = first.rule("a").limiter().config();

        assertThatThrownBy(() -> RuleSetLoader.parse("version: 1\nrules:\n" + rule("a", "fixed-window", 9, "")
                + rule("b", "fixed-window", 3, ""), "rules.yml", first, clock, storeDownForB))
                .isInstanceOf(RulesException.class)
                .hasMessage("rules.yml:11:12: rule 'b': its limiter could not be created: store unreachable");
        assertThat(first.rule("a").limiter().config()).isSameAs(before);
    }

    @Test
    void aSurvivingLimiterThatRefusesNewLimitsFailsTheReloadAndTheOnesChangedBeforeItAreRestored() {
        LimiterFactory capped = CappedStoreLimiter.factory(100);
        String two = rule("a", "fixed-window", 2, "") + rule("b", "fixed-window", 2, "");
        RuleSet first = RuleSetLoader.parse("version: 1\nrules:\n" + two, "rules.yml", RuleSet.empty(), clock,
                capped);
        KeyedLimiter a = first.rule("a").limiter();
        LimitConfig before = a.config();
        assertThat(admitted(a, 1)).isEqualTo(1);

        // a's new limit is applied first, then b's store refuses 500: a must get its old limits back
        assertThatThrownBy(() -> RuleSetLoader.parse("version: 1\nrules:\n" + rule("a", "fixed-window", 9, "")
                + rule("b", "fixed-window", 500, ""), "rules.yml", first, clock, capped))
                .isInstanceOf(RulesException.class)
                .hasMessage("rules.yml:11:12: rule 'b': its limiter refuses the new limits (this store holds at"
                        + " most 100 per window); no rule was changed");
        assertThat(a.config()).isSameAs(before);
        assertThat(first.rule("b").limiter().config().limit()).isEqualTo(2);
        assertThat(admitted(a, 3)).isEqualTo(1);
    }

    @Test
    void defaultsApplyAndRulesOverrideThem() {
        RuleSet rules = RuleSetLoader.parse("version: 1\ndefaults:\n  strategy: sliding-window\n  max-keys: 50\n"
                + "  on-error: reject\n  mode: dry-run\nrules:\n"
                + "  - id: d\n    match: { http: { path: /d } }\n    limit: 1\n    window: 1s\n"
                + "  - id: o\n    match: { http: { path: /o } }\n    limit: 1\n    window: 1s\n"
                + "    strategy: leaky-bucket\n    max-keys: 7\n    on-error: allow\n    mode: enforce\n",
                "rules.yml", RuleSet.empty(), clock);
        Rule d = rules.rule("d");
        assertThat(d.strategyName()).isEqualTo("sliding-window");
        assertThat(d.maxKeys()).isEqualTo(50);
        assertThat(d.onError()).isEqualTo(OnError.REJECT);
        assertThat(d.mode()).isEqualTo(Mode.DRY_RUN);
        Rule o = rules.rule("o");
        assertThat(o.strategyName()).isEqualTo("leaky-bucket");
        assertThat(o.maxKeys()).isEqualTo(7);
        assertThat(o.onError()).isEqualTo(OnError.ALLOW);
        assertThat(o.mode()).isEqualTo(Mode.ENFORCE);
    }
}
