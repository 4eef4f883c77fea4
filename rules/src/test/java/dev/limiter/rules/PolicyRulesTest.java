package dev.limiter.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.store.AllOf;
import dev.limiter.rules.compile.RuleSetLoader;
import dev.limiter.rules.condition.RequestFacts;
import dev.limiter.rules.condition.ValueGlob;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The policy language compiled: several limits, overrides by key and by request, exemptions, cost. */
class PolicyRulesTest {

    private static final String PLANS = """
            version: 1
            rules:
              - id: api
                match:
                  http:
                    path: /api/**
                    methods: [POST]
                    headers: { X-Tenant: 'acme-*' }
                    ips: [203.0.113.0/24, '2001:db8::/32']
                unless:
                  - ips: [10.0.0.0/8]
                  - headers: { X-Health-Check: 'true' }
                  - principal-roles: [ops]
                key: header:X-Api-Key
                limits:
                  - { limit: %d, window: 1h }
                  - { limit: 10, window: 1s }
                cost: 2
                overrides:
                  - keys: [k-gold-1, k-gold-2]
                    name: gold
                    limits: [ { limit: 100, window: 1s }, { limit: 50000, window: 1h } ]
                  - keys: [k-internal]
                    unlimited: true
                  - when: { headers: { X-Plan: pro } }
                    limit: 50
                    window: 1s
            """;

    private final ManualClock clock = new ManualClock(1_767_225_600_000L);

    /** A request as the conditions see it. */
    static final class Request implements RequestFacts {
        final Map<String, String> headers = new HashMap<>();
        final Set<String> roles = new HashSet<>();
        String address = "203.0.113.7";

        Request header(String name, String value) {
            headers.put(name, value);
            return this;
        }

        @Override
        public String header(String name) {
            return headers.get(name);
        }

        @Override
        public String clientAddress() {
            return address;
        }

        @Override
        public boolean isUserInRole(String role) {
            return roles.contains(role);
        }
    }

    private RuleSet load(int hourLimit, RuleSet previous) {
        return RuleSetLoader.parse(PLANS.formatted(hourLimit), "rules.yml", previous, clock);
    }

    @Test
    void theRuleAppliesOnlyToRequestsMeetingItsMatchConditions() throws Throwable {
        Policy policy = load(1000, RuleSet.empty()).rule("api").policy();
        assertThat(policy.applies(new Request().header("X-Tenant", "acme-eu"))).isTrue();
        assertThat(policy.applies(new Request().header("X-Tenant", "other"))).isFalse();
        assertThat(policy.applies(new Request())).as("no tenant header").isFalse();
        Request v6 = new Request().header("X-Tenant", "acme-1");
        v6.address = "2001:db8:1::5";
        assertThat(policy.applies(v6)).isTrue();
        v6.address = "198.51.100.1";
        assertThat(policy.applies(v6)).as("outside both ranges").isFalse();
    }

    @Test
    void exemptionsAreAnyOfTheUnlessEntries() throws Throwable {
        Policy policy = load(1000, RuleSet.empty()).rule("api").policy();
        Request internal = new Request();
        internal.address = "10.1.2.3";
        assertThat(policy.exempts(internal)).isTrue();
        assertThat(policy.exempts(new Request().header("X-Health-Check", "true"))).isTrue();
        assertThat(policy.exempts(new Request().header("X-Health-Check", "yes"))).isFalse();
        Request ops = new Request();
        ops.roles.add("ops");
        assertThat(policy.exempts(ops)).isTrue();
        assertThat(policy.exempts(new Request())).isFalse();
    }

    @Test
    void theFirstOverrideThatAppliesGivesTheTier() throws Throwable {
        Policy policy = load(1000, RuleSet.empty()).rule("api").policy();
        assertThat(policy.tier("k-gold-2", new Request()).name()).isEqualTo("gold");
        assertThat(policy.tier("k-gold-2", new Request()).describe()).isEqualTo("100/1s, 50000/1h");
        assertThat(policy.tier("k-internal", new Request()).unlimited()).isTrue();
        assertThat(policy.tier("k-free", new Request().header("X-Plan", "pro")).describe()).isEqualTo("50/1s");
        assertThat(policy.tier("k-gold-1", new Request().header("X-Plan", "pro")).name())
                .as("by key first, in file order").isEqualTo("gold");
        Tier main = policy.tier("k-free", new Request());
        assertThat(main).isSameAs(policy.main());
        assertThat(main.describe()).as("shortest window first").isEqualTo("10/1s, 1000/1h");
        assertThat(policy.cost()).isEqualTo(2);
    }

    @Test
    void theHeadersNameEveryLimitOfTheTier() throws Throwable {
        Rule rule = load(1000, RuleSet.empty()).rule("api");
        Tier main = rule.policy().main();
        assertThat(main.text(0).policy()).isEqualTo("\"api.1s\";q=10;w=1, \"api.1h\";q=1000;w=3600");
        assertThat(main.text(1).limit()).isEqualTo("1000");
        Tier gold = rule.policy().tier("k-gold-1", new Request());
        assertThat(gold.text(0).policy()).isEqualTo("\"api.gold.1s\";q=100;w=1, \"api.gold.1h\";q=50000;w=3600");
        assertThat(rule.policy().overrides()[2].tier().text(0).policy()).isEqualTo("\"api.override-3\";q=50;w=1");
    }

    @Test
    void aReloadKeepsEachLimitsSpentBudgetAndAppliesTheNewLimits() {
        RuleSet first = load(1000, RuleSet.empty());
        Policy policy = first.rule("api").policy();
        long[] out = Outcome.newArray();
        long[] scratch = Outcome.newArray();
        long[] stamps = new long[2];
        for (int i = 0; i < 3; i++) {
            assertThat(AllOf.admitted(AllOf.tryAcquire(policy.main().limiters(), "k", 2, out, scratch, stamps)))
                    .isTrue();
        }
        KeyedLimiter gold = policy.overrides()[0].tier().limiters()[0];
        gold.tryAcquire("k-gold-1", 5, out);

        Policy reloaded = load(2000, first).rule("api").policy();
        KeyedLimiter hour = reloaded.main().limiters()[1];
        assertThat(hour).isSameAs(policy.main().limiters()[1]);
        assertThat(hour.config().limit()).isEqualTo(2000);
        assertThat(hour.remaining("k", out)).isEqualTo(2000 - 6);
        assertThat(reloaded.main().limiters()[0].remaining("k", out)).isEqualTo(10 - 6);
        assertThat(reloaded.overrides()[0].tier().limiters()[0].remaining("k-gold-1", out)).isEqualTo(95);
        assertThat(reloaded.overrides()[0].tier().stats()).isSameAs(policy.overrides()[0].tier().stats());
    }

    @Test
    void aV1RuleIsOneTierOfOneLimitWithoutConditions() {
        Rule rule = RuleSetLoader.parse("""
                version: 1
                rules:
                  - id: plain
                    match: { http: { path: /x } }
                    limit: 5
                    window: 1s
                """, "rules.yml", RuleSet.empty(), clock).rule("plain");
        assertThat(rule.policy().conditional()).isFalse();
        assertThat(rule.policy().hasOverrides()).isFalse();
        assertThat(rule.policy().main().limiters()).containsExactly(rule.limiter());
        assertThat(rule.policyHeader()).isEqualTo("\"plain\";q=5;w=1");
    }

    @Test
    void valueGlobsMatchStarsAndAbsence() {
        assertThat(ValueGlob.compile("acme-*").matches("acme-")).isTrue();
        assertThat(ValueGlob.compile("*.internal").matches("a.b.internal")).isTrue();
        assertThat(ValueGlob.compile("a*b*c").matches("aXbYbZc")).isTrue();
        assertThat(ValueGlob.compile("a*b*c").matches("aXbYcZ")).isFalse();
        assertThat(ValueGlob.compile("pro").matches("Pro")).as("case-sensitive").isFalse();
        assertThat(ValueGlob.compile("").matches(null)).isTrue();
        assertThat(ValueGlob.compile("").matches("x")).isFalse();
        assertThat(ValueGlob.compile("*").matches(null)).as("* needs the header").isFalse();
    }
}
