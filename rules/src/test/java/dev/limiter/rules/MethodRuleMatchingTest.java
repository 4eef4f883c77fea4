package dev.limiter.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.rules.compile.TestRules;
import dev.limiter.rules.key.KeySpec;
import org.junit.jupiter.api.Test;

/**
 * The name tests the agent runs while classes load ({@link RuleSet#namesMethodClass}, {@link
 * RuleSet#namesJaxrsClass}) and the keys {@code jaxrs:} rules may use.
 */
class MethodRuleMatchingTest {

    private static final RuleSet RULES = TestRules.parse("version: 1\nrules:\n"
            + "  - id: mailer\n    match: { method: { class: 'com.acme.mail.*Mailer', method: 'send*' } }\n"
            + "    key: arg:0\n    limit: 5\n    window: 1s\n"
            + "  - id: orders\n    match: { jaxrs: { class: 'com.acme.**.OrderResource' } }\n"
            + "    key: path-param:id\n    limit: 5\n    window: 1s\n"
            + "  - id: api\n    match: { http: { path: /api/** } }\n    limit: 5\n    window: 1s\n");

    @Test
    void methodClassesAreNamedByTheirClassGlobOnly() {
        assertThat(RULES.namesMethodClass("com.acme.mail.SmtpMailer")).isTrue();
        assertThat(RULES.namesMethodClass("com.acme.mail.smtp.SmtpMailer")).isFalse();
        assertThat(RULES.namesMethodClass("com.acme.a.OrderResource")).isFalse();
        assertThat(RULES.namesJaxrsClass("com.acme.a.b.OrderResource")).isTrue();
        assertThat(RULES.namesJaxrsClass("com.acme.mail.SmtpMailer")).isFalse();
        assertThat(RuleSet.empty().namesMethodClass("com.acme.mail.SmtpMailer")).isFalse();
        assertThat(RULES.maxMethodMatches()).isEqualTo(1);
    }

    @Test
    void methodMatchingUsesTheMethodGlob() {
        Rule[] out = new Rule[RULES.maxMethodMatches()];
        assertThat(RULES.matchMethod("com.acme.mail.SmtpMailer", "sendWelcome", out)).isEqualTo(1);
        assertThat(out[0].id()).isEqualTo("mailer");
        assertThat(RULES.matchMethod("com.acme.mail.SmtpMailer", "close", out)).isZero();
        assertThat(RULES.matchJaxrs("com.acme.x.OrderResource", "get", out)).isEqualTo(1);
    }

    @Test
    void aPathParamKeyNeedsAnHttpOrJaxrsMatch() {
        assertThat(RULES.rule("orders").key()).isEqualTo(new KeySpec(KeySpec.Kind.PATH_PARAM, "id", -1));
        assertThatThrownBy(() -> TestRules.parse("version: 1\nrules:\n"
                + "  - id: m\n    match: { method: { class: a.B } }\n    key: path-param:id\n"
                + "    limit: 5\n    window: 1s\n"))
                .hasMessageContaining("key 'path-param:id' needs an http match with {id} in the path, or a jaxrs"
                        + " match with a @PathParam(\"id\") argument");
    }
}
