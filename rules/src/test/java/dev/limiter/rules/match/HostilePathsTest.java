package dev.limiter.rules.match;

import static dev.limiter.rules.compile.TestRules.httpRules;
import static dev.limiter.rules.compile.TestRules.matches;
import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.limiter.rules.RuleSet;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * Request paths built to make the matcher slow or deep: 10,000 and 100,000 segments, empty segments, matrix
 * parameters, long segments against segment globs, {@code **} patterns that must retry. The trie walk recurses
 * at most as deep as the deepest pattern (64 segments), whatever the path; {@code **} patterns cost at most path
 * segments times pattern segments.
 */
class HostilePathsTest {

    private static final Duration BOUND = Duration.ofSeconds(10);

    private static final RuleSet RULES = httpRules("/api/**", "/*/*/*/*", "/a/**/b/**/c", "/**/x/*/y/**/z",
            "/a/{v}/a/*/a*b*c*d/**", "/**/admin", deepPattern());

    private static String deepPattern() {
        return "/a".repeat(63) + "/*";
    }

    @Test
    void tenThousandAndAHundredThousandSegmentsMatchInBoundedTimeWithoutDeepRecursion() {
        for (int segments : new int[] {10_000, 100_000}) {
            String path = "/a".repeat(segments);
            String admin = path + "/admin";
            assertTimeoutPreemptively(BOUND, () -> {
                for (int i = 0; i < 10; i++) {
                    assertThat(matches(RULES, "GET", path)).as("%d segments", segments).isEmpty();
                    assertThat(matches(RULES, "GET", admin)).containsExactly("r5");
                }
            });
        }
    }

    @Test
    void aDoubleStarPatternThatMustRetryAtEverySegmentStaysBounded() {
        // '/a/**/b/**/c' against a/b/b/b/...: each b restarts the second '**'; still segments x pattern
        String path = "/a" + "/b".repeat(20_000) + "/d";
        String glob = "/a/z/a/q/" + "a".repeat(20_000) + "b".repeat(20_000);
        assertTimeoutPreemptively(BOUND, () -> {
            assertThat(matches(RULES, "GET", path)).isEmpty();
            assertThat(matches(RULES, "GET", path.replace("/d", "/c"))).containsExactly("r2");
            assertThat(matches(RULES, "GET", glob)).isEmpty();
        });
    }

    @Test
    void emptySegmentsAndMatrixParametersCostNoMoreThanTheirLength() {
        String slashes = "/" + "/".repeat(100_000) + "api" + "/".repeat(100_000);
        String matrix = "/api" + ";x=1".repeat(20_000) + "/" + ";".repeat(50_000) + "/v";
        assertTimeoutPreemptively(BOUND, () -> {
            assertThat(matches(RULES, "GET", slashes)).containsExactly("r0");
            assertThat(matches(RULES, "GET", matrix)).containsExactly("r0");
        });
    }

    @Test
    void theDeepestPatternStillMatches() {
        assertThat(matches(RULES, "GET", "/a".repeat(64))).containsExactly("r6");
        assertThat(matches(RULES, "GET", "/a".repeat(65))).isEmpty();
    }
}
