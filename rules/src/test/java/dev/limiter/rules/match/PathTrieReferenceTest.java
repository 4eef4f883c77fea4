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

/**
 * Fuzzing the path matcher against a reference written from docs/rules.md alone, sharing no code with it: a
 * request path is split into segments (empty segments dropped, a segment's {@code ;params} cut off); {@code *}
 * and {@code {name}} match one segment, {@code **} any number including none, a segment glob matches with
 * {@code *} any run and {@code ?} one character, anything else is an exact, case-sensitive literal. The reference
 * matches by plain recursion over both lists (fine for the short paths generated here).
 *
 * <p>Property: for random sets of patterns (literals, wildcards, globs, variables, {@code **} anywhere) and random
 * paths (empty segments, trailing slashes, matrix parameters, near-miss literals), the rules the trie matches are
 * exactly those whose pattern the reference matches, in file order.
 *
 * <p>Tries default to jqwik's 1,000 (a second or two); a longer run:
 * {@code mvn -B -pl rules verify -Dtest=PathTrieReferenceTest -Djqwik.tries.default=100000}.
 */
class PathTrieReferenceTest {

    private static final String[] SEGMENTS = {"a", "b", "ab", "api", "*", "**", "{v}", "a*", "*b", "?", "a?b",
        "*a*", "??"};
    private static final String[] PATH_SEGMENTS = {"a", "b", "ab", "ba", "aab", "abb", "api", "API", "x", "",
        "a;m=1", "b;", ";j=2", "abc"};

    @Property
    void theTrieMatchesWhatTheDocumentedSemanticsSay(@ForAll("patterns") List<String> patterns,
            @ForAll("paths") List<String> paths) {
        RuleSet rules = TestRules.httpRules(patterns.toArray(new String[0]));
        for (String path : paths) {
            List<String> expected = new ArrayList<>();
            for (int i = 0; i < patterns.size(); i++) {
                if (reference(patterns.get(i), path)) {
                    expected.add("r" + i);
                }
            }
            assertThat(TestRules.matches(rules, "GET", path)).as("%s against %s", path, patterns)
                    .isEqualTo(expected);
        }
    }

    static boolean reference(String pattern, String path) {
        return match(split(pattern, false), 0, split(path, true), 0);
    }

    private static List<String> split(String text, boolean request) {
        List<String> segments = new ArrayList<>();
        for (String segment : text.split("/")) {
            if (request && segment.contains(";")) {
                segment = segment.substring(0, segment.indexOf(';'));
            }
            if (!segment.isEmpty()) {
                segments.add(segment);
            }
        }
        return segments;
    }

    private static boolean match(List<String> pattern, int p, List<String> path, int s) {
        if (p == pattern.size()) {
            return s == path.size();
        }
        String segment = pattern.get(p);
        if (segment.equals("**")) {
            for (int skip = s; skip <= path.size(); skip++) {
                if (match(pattern, p + 1, path, skip)) {
                    return true;
                }
            }
            return false;
        }
        if (s == path.size()) {
            return false;
        }
        boolean one = segment.equals("*") || segment.startsWith("{") ? true
                : segment.contains("*") || segment.contains("?") ? glob(segment, 0, path.get(s), 0)
                : segment.equals(path.get(s));
        return one && match(pattern, p + 1, path, s + 1);
    }

    private static boolean glob(String glob, int g, String text, int t) {
        if (g == glob.length()) {
            return t == text.length();
        }
        char c = glob.charAt(g);
        if (c == '*') {
            for (int skip = t; skip <= text.length(); skip++) {
                if (glob(glob, g + 1, text, skip)) {
                    return true;
                }
            }
            return false;
        }
        return t < text.length() && (c == '?' || c == text.charAt(t)) && glob(glob, g + 1, text, t + 1);
    }

    @Provide
    Arbitrary<List<String>> patterns() {
        return Arbitraries.of(SEGMENTS).list().ofMaxSize(6).map(segments -> {
            StringBuilder pattern = new StringBuilder();
            int variables = 0;
            for (String segment : segments) {
                pattern.append('/').append(segment.equals("{v}") ? "{v" + variables++ + "}" : segment);
            }
            return pattern.length() == 0 ? "/" : pattern.toString();
        }).list().ofMinSize(1).ofMaxSize(10);
    }

    @Provide
    Arbitrary<List<String>> paths() {
        Arbitrary<String> path = Arbitraries.of(PATH_SEGMENTS).list().ofMaxSize(8).map(segments -> {
            StringBuilder text = new StringBuilder();
            for (String segment : segments) {
                text.append('/').append(segment);
            }
            return text.length() == 0 ? "/" : text.toString();
        });
        return Arbitraries.oneOf(path, path.map(p -> p + "/"), path.map(p -> "/" + p)).list().ofMinSize(1)
                .ofMaxSize(12);
    }
}
