package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Mode;
import dev.limiter.rules.OnError;
import dev.limiter.rules.Rule;
import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** An annotation's values compile through the rules file's own sections: same values, same words. */
class AnnotationRuleTest {

    private static Map<String, Object> values(Object... pairs) {
        Map<String, Object> values = new HashMap<>();
        for (int i = 0; i < pairs.length; i += 2) {
            values.put((String) pairs[i], pairs[i + 1]);
        }
        return values;
    }

    private static AnnotationRule compile(Object... pairs) {
        return AnnotationRule.compile("com.acme.Mailer", "send", values(pairs), new ManualClock(0));
    }

    @Test
    void everyAttributeBecomesTheRuleKeyOfTheSameName() {
        AnnotationRule compiled = compile("id", "send-mail", "limit", 5L, "window", "1m", "key", "arg:0",
                "strategy", "token-bucket", "capacity", 7L, "mode", "dry-run", "onError", "reject", "maxKeys", 10L,
                "onFull", "evict-oldest", "throwClass", "com.acme.QuotaExceeded");
        assertThat(compiled.problems()).isEmpty();
        Rule rule = compiled.rule();
        assertThat(rule.id()).isEqualTo("send-mail");
        assertThat(rule.target()).isEqualTo(Rule.Target.METHOD);
        assertThat(rule.matches("com.acme.Mailer", "send")).isTrue();
        assertThat(rule.limiter().config().limit()).isEqualTo(5);
        assertThat(rule.limiter().config().windowMillis()).isEqualTo(60_000);
        assertThat(rule.limiter().config().capacity()).isEqualTo(7);
        assertThat(rule.strategyName()).isEqualTo("token-bucket");
        assertThat(rule.key().toString()).isEqualTo("arg:0");
        assertThat(rule.mode()).isEqualTo(Mode.DRY_RUN);
        assertThat(rule.onError()).isEqualTo(OnError.REJECT);
        assertThat(rule.maxKeys()).isEqualTo(10);
        assertThat(rule.throwClass()).isEqualTo("com.acme.QuotaExceeded");
    }

    @Test
    void unsetAttributesTakeTheRulesDefaultsAndTheIdDefaultsToClassDotMethod() {
        AnnotationRule compiled = AnnotationRule.compile("com.acme.Outer$Mailer", "send",
                values("id", "", "limit", 2L, "window", "1s", "capacity", 0L, "maxKeys", 0L, "mode", "",
                        "throwClass", Rule.DEFAULT_THROW), new ManualClock(0));
        assertThat(compiled.problems()).isEmpty();
        assertThat(compiled.id()).isEqualTo("com.acme.Outer.Mailer.send");
        Rule rule = compiled.rule();
        assertThat(rule.strategyName()).isEqualTo("fixed-window");
        assertThat(rule.key().toString()).isEqualTo("global");
        assertThat(rule.mode()).isEqualTo(Mode.ENFORCE);
        assertThat(rule.maxKeys()).isEqualTo(RulesCompiler.DEFAULT_MAX_KEYS);
        assertThat(rule.throwClass()).isEqualTo(Rule.DEFAULT_THROW);
        assertThat(rule.limiter().tryAcquire("", Outcome.newArray())).isTrue();
        assertThat(rule.limiter().tryAcquire("", Outcome.newArray())).isTrue();
        assertThat(rule.limiter().tryAcquire("", Outcome.newArray())).isFalse();
    }

    @Test
    void aBadValueIsReportedWithItsAttributeInTheRulesFileWords() {
        AnnotationRule bad = compile("limit", 5L, "window", "5 minutes");
        assertThat(bad.rule()).isNull();
        assertThat(bad.problems()).containsExactly("window: window '5 minutes' is not a duration: write a whole"
                + " number and a unit, like 250ms, 1s, 1m, 1h or 1d");
    }

    @Test
    void eachProblemNamesItsAttribute() {
        assertThat(compile("limit", 0L, "window", "1s").problems()).containsExactly("limit: limit must be at least 1,"
                + " not 0");
        assertThat(compile("limit", 5L).problems()).singleElement().asString().startsWith("window: ")
                .contains("has no 'window'");
        assertThat(compile("limit", 5L, "window", "1s", "capacity", 3L).problems()).containsExactly(
                "capacity: capacity applies to token-bucket and leaky-bucket, not fixed-window");
        assertThat(compile("limit", 5L, "window", "1s", "key", "ip").problems()).containsExactly(
                "key: key 'ip' needs an http, jaxrs or grpc match (plain methods have no request)");
        assertThat(compile("limit", 5L, "window", "1s", "strategy", "token-buket").problems()).singleElement()
                .asString().startsWith("strategy: unknown strategy 'token-buket' (did you mean 'token-bucket'?)");
        assertThat(compile("limit", 5L, "window", "1s", "mode", "dryrun").problems()).singleElement().asString()
                .startsWith("mode: ");
        assertThat(compile("id", "send mail", "limit", 5L, "window", "1s").problems()).singleElement().asString()
                .startsWith("id: rule id 'send mail' must be");
    }

    @Test
    void aDefaultIdTooLongSaysToSetOne() {
        AnnotationRule compiled = AnnotationRule.compile("com.acme." + "a".repeat(100), "send",
                values("limit", 5L, "window", "1s"), new ManualClock(0));
        assertThat(compiled.problems()).singleElement().asString().startsWith("id: rule id ")
                .endsWith("(the default id: set id = \"...\")");
    }

    @Test
    void valuesAreQuotedSoNoValueCanChangeTheRulesShape() {
        AnnotationRule compiled = compile("limit", 5L, "window", "1s\"\n    limit: 1000");
        assertThat(compiled.rule()).isNull();
        assertThat(compiled.problems()).singleElement().asString().startsWith("window: window '");
        assertThat(compile("limit", 5L, "window", "1s").values()).isEqualTo(compile("limit", 5L, "window", "1s")
                .values()).isNotEqualTo(compile("limit", 6L, "window", "1s").values());
    }

    @Test
    void theRuleDecidesLikeAFileRule() {
        Rule rule = compile("limit", 1L, "window", "1h", "key", "arg:0").rule();
        long[] out = Outcome.newArray();
        assertThat(rule.limiter().tryAcquire("a", out)).isTrue();
        assertThat(rule.limiter().tryAcquire("a", out)).isFalse();
        assertThat(out[Outcome.RETRY_AFTER_MILLIS]).isEqualTo(3_600_000);
        assertThat(rule.limiter().tryAcquire("b", out)).isTrue();
    }
}
