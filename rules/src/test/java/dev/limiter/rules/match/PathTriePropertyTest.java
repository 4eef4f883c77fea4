package dev.limiter.rules.match;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.TestRules;
import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/** The trie must agree with matching every pattern on its own, for any patterns and paths. */
class PathTriePropertyTest {

    @Property(tries = 150)
    void trieAgreesWithPatternByPatternMatching(@ForAll("patterns") List<String> patterns,
            @ForAll("paths") List<String> paths) {
        RuleSet rules = TestRules.httpRules(patterns.toArray(new String[0]));
        List<PathPattern> compiled = new ArrayList<>();
        for (String pattern : patterns) {
            compiled.add(PathPattern.compile(pattern));
        }
        for (String path : paths) {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < compiled.size(); i++) {
                if (compiled.get(i).matches(path)) {
                    expected.add("r" + i);
                }
            }
            assertThat(TestRules.matches(rules, "GET", path)).as(path).isEqualTo(expected);
        }
    }

    private static final String[] SEGMENTS = {"a", "b", "ab", "*", "**", "{v}", "a*", "*b", "?", "a?b"};
    private static final String[] PATH_SEGMENTS = {"a", "b", "ab", "aab", "abb", "x", "", "a;m=1"};

    @Provide
    Arbitrary<List<String>> patterns() {
        return Arbitraries.of(SEGMENTS).list().ofMaxSize(5).map(segments -> {
            StringBuilder pattern = new StringBuilder();
            int variables = 0;
            for (String segment : segments) {
                pattern.append('/').append(segment.equals("{v}") ? "{v" + variables++ + "}" : segment);
            }
            return pattern.length() == 0 ? "/" : pattern.toString();
        }).list().ofMinSize(1).ofMaxSize(12);
    }

    @Provide
    Arbitrary<List<String>> paths() {
        return Arbitraries.of(PATH_SEGMENTS).list().ofMaxSize(6).map(segments -> {
            StringBuilder path = new StringBuilder();
            for (String segment : segments) {
                path.append('/').append(segment);
            }
            return path.length() == 0 ? "/" : path.toString();
        }).list().ofMinSize(1).ofMaxSize(10);
    }
}
