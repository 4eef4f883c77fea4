package dev.limiter.rules;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.compile.TestRules;
import dev.limiter.rules.key.KeySpec;
import org.junit.jupiter.api.Test;

/** {@code grpc:} rules: matched on the full service name and the bare method name, keyed on ip or metadata. */
class GrpcRuleMatchingTest {

    private static final RuleSet RULES = TestRules.parse("version: 1\nrules:\n"
            + "  - id: create\n    match: { grpc: { service: 'acme.Orders', method: 'Create*' } }\n"
            + "    key: metadata:X-Tenant\n    limit: 5\n    window: 1s\n"
            + "  - id: all-acme\n    match: { grpc: { service: 'acme.*' } }\n    key: ip\n    limit: 5\n"
            + "    window: 1s\n"
            + "  - id: api\n    match: { http: { path: /api/** } }\n    limit: 5\n    window: 1s\n");

    @Test
    void servicesAndMethodsAreMatchedByTheirGlobs() {
        Rule[] out = new Rule[RULES.maxGrpcMatches()];
        assertThat(RULES.maxGrpcMatches()).isEqualTo(2);
        assertThat(RULES.matchGrpc("acme.Orders", "CreateOrder", out)).isEqualTo(2);
        assertThat(out[0].id()).isEqualTo("create");
        assertThat(out[1].id()).isEqualTo("all-acme");
        assertThat(RULES.matchGrpc("acme.Orders", "Watch", out)).isEqualTo(1);
        assertThat(out[0].id()).isEqualTo("all-acme");
        assertThat(RULES.matchGrpc("acme.billing.Invoices", "Create", out)).isZero();
        assertThat(RULES.matchGrpc(null, "Create", out)).isZero();
        assertThat(RuleSet.empty().maxGrpcMatches()).isZero();
    }

    @Test
    void grpcRulesAreTheirOwnKind() {
        Rule create = RULES.rule("create");
        assertThat(create.target()).isEqualTo(Rule.Target.GRPC);
        assertThat(create.matchText()).isEqualTo("grpc acme.Orders/Create*");
        assertThat(create.key()).isEqualTo(new KeySpec(KeySpec.Kind.METADATA, "X-Tenant", -1));
        assertThat(create.key()).hasToString("metadata:X-Tenant");
        assertThat(RULES.grpcRules()).extracting(Rule::id).containsExactly("create", "all-acme");
        assertThat(RULES.methodRules()).isEmpty();
        assertThat(RULES.maxHttpMatches()).isEqualTo(1);
        Rule[] out = new Rule[1];
        assertThat(RULES.matchGrpc("acme.Orders", "Create", out)).as("no more than the array holds").isEqualTo(1);
    }
}
