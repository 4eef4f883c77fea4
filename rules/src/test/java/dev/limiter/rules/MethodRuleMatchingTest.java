package dev.limiter.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.rules.compile.TestRules;
import dev.limiter.rules.key.KeySpec;
import org.junit.jupiter.api.Test;

/**
 * The name tests the agent runs while classes load ({@link RuleSet#mayNameInternalClass}, then {@link
 * RuleSet#namesMethodClass}, {@link RuleSet#namesJaxrsClass}) and the keys {@code jaxrs:} rules may use.
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
    void theFirstTestRejectsOnTheInternalNameWhatNoRuleCanName() {
        // the literal prefixes are com/acme/mail/ (mailer) and com/acme/ (orders)
        assertThat(RULES.mayNameInternalClass("org/springframework/web/Handler")).isFalse();
        assertThat(RULES.mayNameInternalClass("com/acm")).isFalse();
        assertThat(RULES.mayNameInternalClass("com.acme.mail.SmtpMailer")).isFalse(); // a binary name is not asked
        assertThat(RuleSet.empty().mayNameInternalClass("com/acme/mail/SmtpMailer")).isFalse();
        RuleSet wild = TestRules.parse("version: 1\nrules:\n"
                + "  - id: services\n    match: { method: { class: '*Service' } }\n    limit: 5\n    window: 1s\n");
        assertThat(wild.mayNameInternalClass("org/x/OrderService")).isTrue();
        assertThat(wild.mayNameInternalClass("Other")).isTrue();
    }

    @Test
    void theFirstTestNeverRejectsAClassARuleNames() {
        String[] names = {"com.acme.mail.SmtpMailer", "com.acme.mail.Mailer", "com.acme.mail.smtp.SmtpMailer",
            "com.acme.OrderResource", "com.acme.a.b.OrderResource", "com.acme.a.OrderResource$1",
            "com.acmeX.OrderResource", "com.OrderResource", "org.acme.mail.SmtpMailer"};
        for (String name : names) {
            boolean named = RULES.namesMethodClass(name) || RULES.namesJaxrsClass(name);
            boolean may = RULES.mayNameInternalClass(name.replace('.', '/'));
            assertThat(!named || may).as(name).isTrue();
            assertThat(may).as(name).isEqualTo(name.startsWith("com.acme."));
        }
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
