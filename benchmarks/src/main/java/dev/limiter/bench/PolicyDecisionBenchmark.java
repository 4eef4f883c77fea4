package dev.limiter.bench;

import dev.limiter.agent.decision.Call;
import dev.limiter.agent.decision.Decider;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.RuleSetLoader;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * What a rule's policy costs on the allowed path, through the agent's one decision loop ({@link Decider}) as a
 * servlet request runs it (key, conditions, tier, limits), for an existing key: one limit (the baseline), two
 * limits as one decision, one limit with a header condition and an exemption by network, an override by key,
 * and a call of cost 5. Run with {@code -prof gc}: every one must show 0 B/op. The limits are far above what a
 * run can spend, so every decision admits.
 *
 * <p>{@code matchAndDecideConditional}: finding the rule among 1,000 that each state a header condition and an
 * exemption, then deciding it.
 */
@State(Scope.Thread)
public class PolicyDecisionBenchmark extends BenchmarkDefaults {

    private static final String RULES = """
            version: 1
            rules:
              - id: one
                match: { http: { path: /one } }
                key: header:X-Api-Key
                limit: 2000000000
                window: 1h
              - id: two
                match: { http: { path: /two } }
                key: header:X-Api-Key
                limits:
                  - { limit: 1000000000, window: 1s }
                  - { limit: 2000000000, window: 1h }
              - id: conditional
                match: { http: { path: /conditional, headers: { X-Tenant: 'acme-*' } } }
                key: header:X-Api-Key
                unless:
                  - ips: [10.0.0.0/8]
                limit: 2000000000
                window: 1h
              - id: override
                match: { http: { path: /override } }
                key: header:X-Api-Key
                limit: 10
                window: 1h
                overrides:
                  - keys: [k-other, k-gold]
                    limit: 2000000000
                    window: 1h
              - id: cost
                match: { http: { path: /cost } }
                key: header:X-Api-Key
                limit: 2000000000
                window: 1h
                cost: 5
            """;

    /** A request as the decision sees it: fixed key, tenant header and client address (no allocation). */
    static final class BenchCall extends Call {
        String key = "k-gold";

        @Override
        protected String key(Rule rule, int index) {
            return key;
        }

        @Override
        public String header(String name) {
            return name.equals("X-Tenant") ? "acme-eu" : null;
        }

        @Override
        public String clientAddress() {
            return "203.0.113.9";
        }

        @Override
        protected String missingKey(Rule rule, int index) {
            return "no key";
        }

        @Override
        protected String where() {
            return "";
        }

        @Override
        protected String noun() {
            return "request";
        }
    }

    private final Decider decider = new Decider(new ThrottledLog("dev.limiter.bench", 10_000));
    private final BenchCall call = new BenchCall();
    private final Rule[] matched = new Rule[1];
    private final Rule[] conditionalMatched = new Rule[4];
    private Rule[] one;
    private Rule[] two;
    private Rule[] conditional;
    private Rule[] override;
    private Rule[] cost;
    private RuleSet thousand;
    private String hitPath;

    @Setup
    public void setUp() {
        RuleSet rules = RuleSetLoader.parse(RULES, "bench-rules.yml", RuleSet.empty(), null);
        one = new Rule[] {rules.rule("one")};
        two = new Rule[] {rules.rule("two")};
        conditional = new Rule[] {rules.rule("conditional")};
        override = new Rule[] {rules.rule("override")};
        cost = new Rule[] {rules.rule("cost")};
        thousand = RuleSetLoader.parse(RulesYaml.generate(RuleMatchBenchmark.RULES, true), "bench-rules.yml",
                RuleSet.empty(), null);
        hitPath = new String(RuleMatchBenchmark.HIT_PATH.toCharArray());
    }

    private Rule decide(Rule[] rules, int count) {
        Rule rejecting = decider.decide(rules, count, call);
        if (rejecting != null) {
            throw new IllegalStateException("rejected by " + rejecting.id() + ": the limits are too low for the run");
        }
        return call.bindingRule;
    }

    @Benchmark
    public Rule oneLimit() {
        return decide(one, 1);
    }

    @Benchmark
    public Rule twoLimits() {
        return decide(two, 1);
    }

    @Benchmark
    public Rule headerConditionAndExemption() {
        return decide(conditional, 1);
    }

    @Benchmark
    public Rule overrideByKey() {
        return decide(override, 1);
    }

    @Benchmark
    public Rule costOfFive() {
        return decide(cost, 1);
    }

    @Benchmark
    public Rule matchAndDecideConditional() {
        int count = thousand.matchHttp("GET", hitPath, conditionalMatched);
        return decide(conditionalMatched, count);
    }
}
