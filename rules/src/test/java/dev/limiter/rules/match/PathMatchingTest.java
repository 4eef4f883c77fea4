package dev.limiter.rules.match;

import static dev.limiter.rules.compile.TestRules.httpRules;
import static dev.limiter.rules.compile.TestRules.matches;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.TestRules;
import dev.limiter.rules.key.KeySpec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** The path pattern syntax, through the trie ({@link RuleSet#matchHttp}) and the single-pattern matcher. */
class PathMatchingTest {

    @ParameterizedTest(name = "{0} ~ {1} -> {2}")
    @CsvSource({
        "/api/**, /api, true",
        "/api/**, /api/, true",
        "/api/**, /api/a/b/c, true",
        "/api/**, /apix, false",
        "/api/**, /, false",
        "/**, /, true",
        "/**, /anything/at/all, true",
        "/, /, true",
        "/, /a, false",
        "/a/*, /a/b, true",
        "/a/*, /a, false",
        "/a/*, /a/b/c, false",
        "/a/*/c, /a/b/c, true",
        "/a/*/c, /a/b/d, false",
        "/users/{id}, /users/42, true",
        "/users/{id}, /users, false",
        "/users/{id}, /users/42/orders, false",
        "/users/{id}/orders, /users/42/orders, true",
        "/static/*.js, /static/app.js, true",
        "/static/*.js, /static/app.css, false",
        "/static/*.js, /static/.js, true",
        "/v?/items, /v1/items, true",
        "/v?/items, /v10/items, false",
        "/a*b*c, /abc, true",
        "/a*b*c, /axxbyyc, true",
        "/a*b*c, /axxbyy, false",
        "/**/admin, /admin, true",
        "/**/admin, /x/y/admin, true",
        "/**/admin, /x/admin/y, false",
        "/**/admin/**, /x/admin/y, true",
        "/a/**/b/**/c, /a/b/c, true",
        "/a/**/b/**/c, /a/x/b/y/z/c, true",
        "/a/**/b/**/c, /a/x/c/y/b, false",
        "/a/**/*.html, /a/b/c/index.html, true",
        "/a/**/*.html, /a/b/c/index.htm, false",
        "/api/users, /api//users, true",
        "/api/users, //api/users/, true",
        "/api/users, /api;jsessionid=1/users, true",
        "/api/users, /api/users;x=y, true",
        "/api/users, /API/users, false",
        "/café, /café, true",
    })
    void matchesLikeAnt(String pattern, String path, boolean expected) {
        assertThat(PathPattern.compile(pattern).matches(path)).as("single pattern").isEqualTo(expected);
        RuleSet rules = httpRules(pattern);
        assertThat(matches(rules, "GET", path)).as("trie").isEqualTo(expected ? java.util.List.of("r0")
                : java.util.List.of());
    }

    @Test
    void allMatchingRulesComeBackOnceInFileOrder() {
        RuleSet rules = httpRules("/api/users/{id}", "/**", "/api/**", "/api/*/{x}", "/api/users/42", "/other/**",
                "/**/42");
        assertThat(matches(rules, "GET", "/api/users/42")).containsExactly("r0", "r1", "r2", "r3", "r4", "r6");
        assertThat(matches(rules, "GET", "/other")).containsExactly("r1", "r5");
    }

    @Test
    void aRuleWithSeveralPathsIsReportedOnce() {
        RuleSet rules = TestRules.parse("version: 1\nrules:\n  - id: both\n    match: { http: { paths: [/a/**,"
                + " '/a/{x}', /**] } }\n    limit: 1\n    window: 1s\n");
        assertThat(matches(rules, "GET", "/a/b")).containsExactly("both");
    }

    @Test
    void methodsFilterAndUnknownMethodsOnlyMatchRulesWithoutAList() {
        RuleSet rules = TestRules.parse("version: 1\nrules:\n"
                + "  - id: reads\n    match: { http: { path: /**, methods: [GET, HEAD] } }\n    limit: 1\n    window: 1s\n"
                + "  - id: all\n    match: { http: { path: /** } }\n    limit: 1\n    window: 1s\n");
        assertThat(matches(rules, "GET", "/x")).containsExactly("reads", "all");
        assertThat(matches(rules, "HEAD", "/x")).containsExactly("reads", "all");
        assertThat(matches(rules, "POST", "/x")).containsExactly("all");
        assertThat(matches(rules, "PROPFIND", "/x")).containsExactly("all");
        assertThat(matches(rules, "get", "/x")).containsExactly("all");
        assertThat(matches(rules, null, "/x")).containsExactly("all");
    }

    @Test
    void theOutputArrayBoundsTheResult() {
        RuleSet rules = httpRules("/**", "/a/**", "/a/b");
        Rule[] out = new Rule[2];
        assertThat(rules.matchHttp("GET", "/a/b", out)).isEqualTo(2);
        assertThat(rules.matchHttp("GET", "/a/b", new Rule[0])).isZero();
        assertThat(rules.matchHttp("GET", null, out)).isZero();
    }

    @Test
    void capturesPathParametersForPathParamKeys() {
        RuleSet rules = TestRules.parse("version: 1\nrules:\n  - id: per-user\n    match: { http: { paths:"
                + " ['/users/{user}/orders/{order}', '/**/u/{user}'] } }\n    key: path-param:user\n"
                + "    limit: 1\n    window: 1s\n");
        Rule rule = rules.rule("per-user");
        assertThat(rule.key()).isEqualTo(new KeySpec(KeySpec.Kind.PATH_PARAM, "user", -1));
        assertThat(rule.pathParam("/users/alice/orders/7")).isEqualTo("alice");
        assertThat(rule.pathParam("/users/bob;v=1/orders/7")).isEqualTo("bob");
        assertThat(rule.pathParam("/a/b/u/carol")).isEqualTo("carol");
        assertThat(rule.pathParam("/u/u/dave")).isEqualTo("dave");
        assertThat(rule.pathParam("/nothing")).isNull();
        assertThat(PathPattern.compile("/a/{x}/b").capture("/a/1/b", "y")).isNull();
    }

    @Test
    void rejectsBadPatternsWithAReason() {
        assertThatThrownBy(() -> PathPattern.compile("")).hasMessageContaining("must start with '/'");
        assertThatThrownBy(() -> PathPattern.compile("/a//b")).hasMessageContaining("empty segment");
        assertThatThrownBy(() -> PathPattern.compile("/a/b**")).hasMessageContaining("whole segment");
        assertThatThrownBy(() -> PathPattern.compile("/a/{x}/{x}")).hasMessageContaining("captures {x} twice");
        assertThatThrownBy(() -> PathPattern.compile("/a/{}")).hasMessageContaining("whole segment");
        assertThatThrownBy(() -> PathPattern.compile("/a/{1x}")).hasMessageContaining("not a valid variable");
        assertThatThrownBy(() -> PathPattern.compile("/a b")).hasMessageContaining("space");
        assertThatThrownBy(() -> PathPattern.compile("/a#b")).hasMessageContaining("'#'");
        assertThatThrownBy(() -> PathPattern.compile("/a" + "/x".repeat(65))).hasMessageContaining("more than 64");
    }

    @Test
    @org.junit.jupiter.api.Timeout(120) // a hang guard, not a speed test: backtracking would need ~4000^3 steps
    void hostilePathsAgainstManyDoubleStarsStayCheap() {
        PathPattern pattern = PathPattern.compile("/**/a/**/a/**/a/**/b");
        String path = "/a".repeat(4_000);
        assertThat(pattern.matches(path)).isFalse();
        assertThat(pattern.matches(path + "/b")).isTrue();
    }
}
