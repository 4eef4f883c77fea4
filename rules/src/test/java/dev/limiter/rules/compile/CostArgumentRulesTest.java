package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Policy;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code cost: arg:N}: what compiles (the argument index on the policy, for the woven method to read), and every
 * refusal with its place. Whether a matched method has that argument is only known when it is woven (agent).
 */
class CostArgumentRulesTest {

    private final ManualClock clock = new ManualClock(1_000_000);

    private RuleSet load(String rule) {
        return RuleSetLoader.parse("version: 1\nrules:\n  - id: r\n" + rule, "rules.yml", null, clock);
    }

    private static String method(String extra) {
        return "    match: { method: { class: com.acme.Exporter, method: export } }\n    limit: 100\n    window: 1h\n"
                + extra;
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
    void aMethodRuleReadsItsCostFromTheNamedArgument() {
        Policy policy = load(method("    cost: arg:2\n")).rule("r").policy();
        assertThat(policy.costArgument()).isEqualTo(2);
        assertThat(policy.cost()).isEqualTo(1);
        Policy quoted = load(method("    cost: 'arg:0'\n")).rule("r").policy();
        assertThat(quoted.costArgument()).isZero();
    }

    @Test
    void aFixedCostHasNoArgument() {
        Policy policy = load(method("    cost: 40\n")).rule("r").policy();
        assertThat(policy.costArgument()).isEqualTo(-1);
        assertThat(policy.cost()).isEqualTo(40);
        assertThat(load(method("")).rule("r").policy().costArgument()).isEqualTo(-1);
    }

    @Test
    void aJaxrsRuleMayReadItsCostFromAResourceMethodArgument() {
        String jaxrs = "    match: { jaxrs: { class: com.acme.Api, method: upload } }\n    limit: 100\n"
                + "    window: 1h\n    cost: arg:1\n";
        assertThat(load(jaxrs).rule("r").policy().costArgument()).isEqualTo(1);
    }

    @Test
    void anHttpRuleHasNoArguments() {
        String http = "    match: { http: { path: /api/** } }\n    limit: 10\n    window: 1s\n    cost: arg:0\n";
        assertThat(error(http)).isEqualTo("7:11 cost 'arg:0' needs a method or jaxrs match (HTTP requests have no"
                + " arguments); give a number instead");
    }

    @Test
    void aGrpcCallHasNoArguments() {
        String grpc = "    match: { grpc: { service: acme.Orders } }\n    limit: 10\n    window: 1s\n    cost: arg:0\n";
        assertThat(error(grpc)).isEqualTo("7:11 cost 'arg:0' needs a method or jaxrs match (a gRPC call has no"
                + " arguments); give a number instead");
        assertThat(load(grpc.replace("arg:0", "3")).rule("r").policy().cost()).isEqualTo(3);
    }

    @Test
    void theArgumentMustBeAnIndexFromZeroTo254() {
        assertThat(error(method("    cost: arg:255\n"))).startsWith("7:11 cost ").contains("from 0 to 254");
        assertThat(error(method("    cost: arg:-1\n"))).startsWith("7:11 cost ");
        assertThat(error(method("    cost: arg:first\n"))).startsWith("7:11 cost ");
        assertThat(error(method("    cost: 'arg:'\n"))).startsWith("7:11 cost ");
    }

    @Test
    void otherTextIsNeitherANumberNorAnArgument() {
        assertThat(error(method("    cost: header:X-Cost\n"))).isEqualTo("7:11 cost must be a whole number of permits"
                + " (e.g. 'cost: 50') or, for a method, the argument that gives it ('cost: arg:1')");
        assertThat(error(method("    cost: [1]\n"))).startsWith("7:11 cost must be a whole number of permits");
    }

    @Test
    void concurrencyTakesOnePermitPerCallAsForAFixedCost() {
        String concurrency = "    match: { method: { class: com.acme.Exporter, method: export } }\n    limit: 4\n"
                + "    strategy: concurrency\n    cost: arg:0\n";
        assertThat(error(concurrency)).isEqualTo("7:11 a cost above 1 needs a strategy that takes several permits at"
                + " once (fixed-window, sliding-window, sliding-log, token-bucket or leaky-bucket), not concurrency");
    }

    @Test
    void severalLimitsOverridesAndWaitingTakeAnArgumentCost() {
        String several = "    match: { method: { class: com.acme.Exporter, method: export } }\n"
                + "    key: arg:0\n    limits:\n      - { limit: 10, window: 1s }\n      - { limit: 100, window: 1h }\n"
                + "    cost: arg:1\n    overrides:\n      - { keys: [gold], limit: 1000, window: 1h }\n";
        Policy policy = load(several).rule("r").policy();
        assertThat(policy.costArgument()).isEqualTo(1);
        assertThat(policy.main().maxCost()).isEqualTo(10);
        assertThat(policy.overrides()[0].tier().maxCost()).isEqualTo(1000);
        Policy waiting = load(method("    strategy: token-bucket\n    capacity: 20\n    on-limit: wait\n"
                + "    max-wait: 1s\n    cost: arg:0\n")).rule("r").policy();
        assertThat(waiting.costArgument()).isZero();
        assertThat(waiting.main().maxCost()).as("a bucket's budget is its capacity").isEqualTo(20);
    }

    @Test
    void anAnnotationTakesItsCostAsTextThroughTheSameValidation() {
        Map<String, Object> values = new LinkedHashMap<>();
        values.put("limit", 10L);
        values.put("window", "1h");
        values.put("cost", "arg:1");
        AnnotationRule argument = AnnotationRule.compile("com.acme.Exporter", "export", values, clock);
        assertThat(argument.problems()).isEmpty();
        assertThat(argument.rule().policy().costArgument()).isEqualTo(1);
        values.put("cost", "4");
        AnnotationRule fixed = AnnotationRule.compile("com.acme.Exporter", "export", values, clock);
        assertThat(fixed.problems()).isEmpty();
        assertThat(fixed.rule().policy().cost()).isEqualTo(4);
        assertThat(fixed.rule().policy().costArgument()).isEqualTo(-1);
        values.put("cost", "11");
        assertThat(AnnotationRule.compile("com.acme.Exporter", "export", values, clock).problems()).containsExactly(
                "cost: cost 11 is above the budget of 10 at line 5: no call could ever be admitted");
        values.put("cost", "four");
        assertThat(AnnotationRule.compile("com.acme.Exporter", "export", values, clock).problems()).containsExactly(
                "cost: cost must be a whole number of permits (e.g. 'cost: 50') or, for a method, the argument that"
                        + " gives it ('cost: arg:1')");
        values.put("cost", "");
        assertThat(AnnotationRule.compile("com.acme.Exporter", "export", values, clock).rule().policy().cost())
                .as("unset").isEqualTo(1);
    }
}
