package dev.limiter.agent.decision;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.testing.FailingStrategies;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The decision loop on its own, with real rules: every rule must admit, a rejected call keeps no permit, dry-run
 * only counts, the binding outcome is the enforced rule with the least remaining, and failures follow
 * {@code on-error}.
 */
class DeciderTest {

    @TempDir
    Path dir;

    private RuleSetHolder holder;
    private final Decider decider = new Decider(new ThrottledLog("dev.limiter.test", 0));

    @AfterEach
    void close() {
        if (holder != null) {
            holder.close();
        }
    }

    private RuleSet rules(String yaml) throws Exception {
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, "version: 1\nrules:\n" + yaml);
        holder = RuleSetHolder.open(file, new ManualClock(1_000_000));
        assertThat(holder.lastError()).isNull();
        return holder.current();
    }

    /** A call whose key is {@code key} for every rule, or none ({@code null}) if it is null. */
    private static final class FixedKeyCall extends Call {

        private final String key;

        FixedKeyCall(String key) {
            this.key = key;
        }

        @Override
        protected String key(Rule rule, int index) {
            return key;
        }

        @Override
        protected String missingKey(Rule rule, int index) {
            return "no key for " + rule.id();
        }

        @Override
        protected String where() {
            return " in a test";
        }

        @Override
        protected String noun() {
            return "call";
        }
    }

    private Rule decide(RuleSet rules, Call call, String... ids) {
        Rule[] matched = new Rule[ids.length];
        for (int i = 0; i < ids.length; i++) {
            matched[i] = rules.rule(ids[i]);
        }
        return decider.decide(matched, matched.length, call);
    }

    @Test
    void aRejectedCallGivesBackThePermitsEarlierRulesTook() throws Exception {
        RuleSet rules = rules("""
                  - id: inflight
                    match: { http: { path: /a } }
                    strategy: concurrency
                    limit: 5
                  - id: rate
                    match: { http: { path: /a } }
                    limit: 1
                    window: 1m
                """);
        FixedKeyCall call = new FixedKeyCall("k");
        assertThat(decide(rules, call, "inflight", "rate")).isNull();
        assertThat(call.permits.height()).isEqualTo(1);
        call.permits.releaseTo(0);

        assertThat(decide(rules, call, "inflight", "rate")).isSameAs(rules.rule("rate"));
        assertThat(call.permits.height()).isZero();
        long[] out = Outcome.newArray();
        assertThat(rules.rule("inflight").limiter().remaining("k", out)).as("nothing held by a rejected call")
                .isEqualTo(5);
        assertThat(rules.rule("inflight").stats().allowed().sum()).isEqualTo(2);
        assertThat(rules.rule("rate").stats().rejected().sum()).isEqualTo(1);
    }

    @Test
    void theBindingOutcomeIsTheEnforcedRuleWithTheLeastRemainingAndDryRunOnlyCounts() throws Exception {
        RuleSet rules = rules("""
                  - id: wide
                    match: { http: { path: /a } }
                    limit: 100
                    window: 1m
                  - id: narrow
                    match: { http: { path: /a } }
                    limit: 3
                    window: 1m
                  - id: shadow
                    match: { http: { path: /a } }
                    limit: 1
                    window: 1m
                    mode: dry-run
                """);
        FixedKeyCall call = new FixedKeyCall("k");
        assertThat(decide(rules, call, "wide", "narrow", "shadow")).isNull();
        assertThat(call.bindingRule).isSameAs(rules.rule("narrow"));
        assertThat(call.binding[Outcome.REMAINING]).isEqualTo(2);
        assertThat(decide(rules, call, "wide", "narrow", "shadow")).as("dry-run refuses but admits").isNull();
        assertThat(rules.rule("shadow").stats().wouldReject().sum()).isEqualTo(1);
        assertThat(call.bindingRule).isSameAs(rules.rule("narrow"));
        assertThat(call.binding[Outcome.REMAINING]).isEqualTo(1);
    }

    @Test
    void aFailingRuleFollowsItsOnError() throws Exception {
        FailingStrategies.register(dir.resolve("failing-strategy"));
        RuleSet rules = rules("""
                  - id: open
                    match: { http: { path: /a } }
                    strategy: failing-for-tests
                    limit: 1
                    window: 1m
                  - id: closed
                    match: { http: { path: /a } }
                    strategy: failing-for-tests
                    limit: 1
                    window: 1m
                    on-error: reject
                """);
        FixedKeyCall call = new FixedKeyCall("k");
        assertThat(decide(rules, call, "open")).isNull();
        assertThat(decide(rules, call, "open", "closed")).isSameAs(rules.rule("closed"));
        assertThat(call.out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(1000);
        assertThat(rules.rule("open").stats().errors().sum()).isEqualTo(2);
        assertThat(rules.rule("closed").stats().errors().sum()).isEqualTo(1);
    }

    @Test
    void aMissingKeyIsTheRulesFailure() throws Exception {
        RuleSet rules = rules("""
                  - id: open
                    match: { http: { path: /a } }
                    limit: 1
                    window: 1m
                  - id: closed
                    match: { http: { path: /a } }
                    limit: 1
                    window: 1m
                    on-error: reject
                """);
        FixedKeyCall keyless = new FixedKeyCall(null);
        assertThat(decide(rules, keyless, "open")).isNull();
        assertThat(decide(rules, keyless, "closed")).isSameAs(rules.rule("closed"));
        assertThat(rules.rule("open").stats().errors().sum()).isEqualTo(1);
        assertThat(rules.rule("open").stats().allowed().sum()).isZero();
    }
}
