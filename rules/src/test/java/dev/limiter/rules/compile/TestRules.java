package dev.limiter.rules.compile;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/** Builds rule sets from YAML text for tests. */
public final class TestRules {

    private TestRules() {
    }

    public static RuleSet parse(String yaml) {
        return RuleSetLoader.parse(yaml, "rules.yml", RuleSet.empty(), null);
    }

    /** One HTTP rule per path, ids r0, r1, ... in order. */
    public static RuleSet httpRules(String... paths) {
        StringBuilder yaml = new StringBuilder("version: 1\nrules:\n");
        for (int i = 0; i < paths.length; i++) {
            yaml.append("  - id: r").append(i).append("\n    match: { http: { path: '").append(paths[i])
                    .append("' } }\n    limit: 5\n    window: 1s\n");
        }
        return parse(yaml.toString());
    }

    /** The ids of the rules matching a request, in the order returned. */
    public static java.util.List<String> matches(RuleSet rules, String method, String path) {
        Rule[] out = new Rule[Math.max(1, rules.maxHttpMatches())];
        int count = rules.matchHttp(method, path, out);
        java.util.List<String> ids = new java.util.ArrayList<>();
        for (int i = 0; i < count; i++) {
            ids.add(out[i].id());
        }
        return ids;
    }
}
