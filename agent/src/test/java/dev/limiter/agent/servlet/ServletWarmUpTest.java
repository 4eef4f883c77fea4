package dev.limiter.agent.servlet;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.RuleSetLoader;
import org.junit.jupiter.api.Test;

/**
 * The first-request warm-up binds the servlet API's shape through the real {@link ServletApi} (a failure would
 * be thrown by {@code exercise}, which {@code run} only swallows), matches the real rules, and leaves every rule
 * as it found it: no count, no key.
 */
class ServletWarmUpTest {

    private static final String RULES = """
            version: 1
            rules:
              - id: everything
                match: { http: { path: /** } }
                key: ip
                limit: 5
                window: 1m
              - id: api
                match: { http: { path: /api/** } }
                limit: 5
                window: 1m
              - id: plain
                match: { method: { class: com.example.Service, method: call } }
                limit: 5
                window: 1m
            """;

    @Test
    void bindsTheApiShapeAndMatchesTheRulesWithoutTouchingThem() throws Throwable {
        RuleSet rules = RuleSetLoader.parse(RULES, "rules.yml", null, null);

        int matched = ServletWarmUp.exercise(rules);

        assertThat(matched).as("only /** matches " + ServletWarmUp.PATH).isEqualTo(1);
        for (Rule rule : rules.rules()) {
            assertThat(rule.stats().allowed().sum() + rule.stats().rejected().sum()
                    + rule.stats().wouldReject().sum() + rule.stats().errors().sum()).as(rule.id()).isZero();
            assertThat(rule.limiter().activeKeys()).as(rule.id()).isZero();
        }
    }

    @Test
    void bindsTheSameApiAsARealRequestClassWouldGet() throws Throwable {
        ServletApi api = new ServletApi(dev.limiter.agent.servlet.shape.Request.class,
                dev.limiter.agent.servlet.shape.Response.class);

        assertThat(api.supported).isTrue();
        assertThat(api.callsClass().isHidden()).as("its handles are constants of a hidden class").isTrue();
    }

    @Test
    void aRuleSetWithoutHttpRulesOnlyBindsTheApi() throws Throwable {
        RuleSet rules = RuleSetLoader.parse("version: 1\nrules: []\n", "rules.yml", null, null);

        assertThat(ServletWarmUp.exercise(rules)).isZero();
    }

    @Test
    void runReportsTheWorkDone() {
        RuleSet rules = RuleSetLoader.parse(RULES, "rules.yml", null, null);

        assertThat(ServletWarmUp.run(rules)).isTrue();
    }

    @Test
    void runSwallowsAFailureAndReportsTheWorkNotDone() {
        // no rule set: the match throws, which run must keep from the rules thread
        assertThat(ServletWarmUp.run(null)).isFalse();
    }
}
