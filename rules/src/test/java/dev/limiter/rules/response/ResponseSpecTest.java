package dev.limiter.rules.response;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.TestRules;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Rejection bodies and rate-limit headers in every style. */
class ResponseSpecTest {

    private static RuleSet rules(String response) {
        return TestRules.parse("version: 1\n" + response + "rules:\n"
                + "  - id: api\n    match: { http: { path: /api/** } }\n    limit: 100\n    window: 1m\n"
                + "  - id: pool\n    match: { http: { path: /pool } }\n    strategy: concurrency\n    limit: 4\n");
    }

    private static List<String> headers(ResponseSpec spec, Rule rule, boolean rejected) {
        long[] out = Outcome.newArray();
        out[Outcome.REMAINING] = 7;
        out[Outcome.RESET_EPOCH_SECONDS] = 1_000_030;
        out[Outcome.RETRY_AFTER_MILLIS] = 1_500;
        out[Outcome.LIMIT] = 100;
        List<String> lines = new ArrayList<>();
        spec.headers(rule.headerText(), out, rejected, 1_000_000_000L, (name, value) -> lines.add(name + ": " + value));
        return lines;
    }

    @Test
    void draftHeadersNameThePolicy() {
        RuleSet rules = rules("");
        assertThat(headers(rules.response(), rules.rule("api"), false)).containsExactly(
                "RateLimit-Policy: \"api\";q=100;w=60", "RateLimit: \"api\";r=7;t=30");
        assertThat(headers(rules.response(), rules.rule("api"), true)).containsExactly("Retry-After: 2",
                "RateLimit-Policy: \"api\";q=100;w=60", "RateLimit: \"api\";r=7;t=30");
        assertThat(rules.rule("pool").policyHeader()).isEqualTo("\"pool\";q=4");
    }

    @Test
    void legacyBothAndNone() {
        RuleSet legacy = rules("response:\n  headers: legacy\n");
        assertThat(headers(legacy.response(), legacy.rule("api"), true)).containsExactly("Retry-After: 2",
                "X-RateLimit-Limit: 100", "X-RateLimit-Remaining: 7", "X-RateLimit-Reset: 1000030");
        RuleSet both = rules("response:\n  headers: both\n");
        assertThat(headers(both.response(), both.rule("api"), false)).hasSize(5);
        RuleSet none = rules("response:\n  headers: none\n");
        assertThat(headers(none.response(), none.rule("api"), false)).isEmpty();
        assertThat(headers(none.response(), none.rule("api"), true)).containsExactly("Retry-After: 2");
    }

    @Test
    void rendersTemplatesAndEscapesTheRuleId() {
        RuleSet rules = rules("response:\n  status: 503\n  content-type: text/plain\n"
                + "  body: 'slow down (${rule}), retry in ${retry_after}s; ${rule} again'\n");
        ResponseSpec spec = rules.response();
        assertThat(spec.status()).isEqualTo(503);
        assertThat(spec.contentType()).isEqualTo("text/plain");
        assertThat(spec.renderBody("api", 3)).isEqualTo("slow down (api), retry in 3s; api again");
        assertThat(ResponseSpec.DEFAULT.renderBody("a\"b\\c\n<x>", 1)).isEqualTo(
                "{\"error\":\"too_many_requests\",\"rule\":\"a\\\"b\\\\c\\n\\u003cx\\u003e\",\"retry_after\":1}");
        assertThat(ResponseSpec.create(429, "text/plain", "", HeaderStyle.NONE).renderBody("x", 1)).isEmpty();
        assertThat(ResponseSpec.create(429, "text/plain", "${rule}", HeaderStyle.NONE).renderBody("x", 1))
                .isEqualTo("x");
        assertThatThrownBy(() -> ResponseSpec.create(429, "t", "${oops", HeaderStyle.NONE))
                .hasMessageContaining("'${oops'");
    }

    @Test
    void yamlIntegersInOtherNotationsAreReadAsNumbers() {
        RuleSet rules = TestRules.parse("version: 1\nrules:\n  - id: a\n    match: { http: { path: /a } }\n"
                + "    limit: 0x10\n    window: 1s\n    max-keys: 1_000\n");
        assertThat(rules.rule("a").limiter().config().limit()).isEqualTo(16);
        assertThat(rules.rule("a").maxKeys()).isEqualTo(1000);
        assertThatThrownBy(() -> TestRules.parse("version: 1\nrules:\n  - id: a\n    match: { http: { path: /a } }"
                + "\n    limit: 99999999999999999999999\n    window: 1s\n"))
                .hasMessage("rules.yml:5:12: limit is too large: 99999999999999999999999");
    }
}
