package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.yaml.YamlTreeReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import net.jqwik.api.Tuple;

/**
 * The loader's one promise under hostile input: a valid rule set or a {@link RulesException}, never another
 * exception, a hang or an out-of-memory; and on reload, a failure leaves the running limiters as they were.
 * Random text, mutations of the real example (also loaded as a reload over it), strategy / limit combinations
 * that reach each strategy's own validation (the sliding window's 21-bit counts, the custom {@code small-quota}
 * strategy registered for these tests), and YAML bombs. Every try runs under a generous time bound: a hang
 * fails the test instead of stalling the build.
 */
class LoaderFuzzTest {

    /** Per try; a load takes milliseconds, so only a hang (or a machine at a standstill) gets near it. */
    private static final Duration TRY_LIMIT = Duration.ofSeconds(10);
    private static final String EXAMPLE = example();
    /** Valid for every strategy. */
    private static final List<String> SMALL_LIMITS = List.of("1", "2", "10", "1000");
    /** Valid for some strategies only: small-quota stops at 1000, the sliding window at 2,097,151. */
    private static final List<String> LARGE_LIMITS = List.of("1001", "2097151", "2097152", "3000000", "2147483647");
    /** Invalid for every strategy. */
    private static final List<String> BAD_LIMITS = List.of("2147483648", "0", "-1", "1.5", "'10'");

    private static String example() {
        try (InputStream in = LoaderFuzzTest.class.getResourceAsStream("/example.yml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Loads and reports the only two acceptable outcomes. */
    private static void loadsOrExplains(String text) {
        loadsOrExplains(text, RuleSet.empty());
    }

    /**
     * Loads {@code text} over {@code previous}: a valid set whose every limiter its strategy accepts, or our
     * exception with positioned messages and every limiter of {@code previous} exactly as it was.
     */
    private static RuleSet loadsOrExplains(String text, RuleSet previous) {
        Map<KeyedLimiter, LimitConfig> running = new IdentityHashMap<>();
        for (Rule rule : previous.rules()) {
            running.put(rule.limiter(), rule.limiter().config());
        }
        try {
            RuleSet rules = RuleSetLoader.parse(text, "rules.yml", previous, null);
            assertThat(rules.rules()).allSatisfy(rule -> assertThatCode(
                    () -> rule.limiter().strategy().validate(rule.limiter().config())).doesNotThrowAnyException());
            return rules;
        } catch (RulesException e) {
            assertThat(e.errors()).isNotEmpty().allSatisfy(error -> {
                assertThat(error.line()).isPositive();
                assertThat(error.column()).isPositive();
                assertThat(error.message()).isNotBlank();
                assertThat(error.message()).doesNotContain("internal error");
            });
            running.forEach((limiter, config) -> assertThat(limiter.config()).isSameAs(config));
            return null;
        }
    }

    @Property(tries = 200)
    void randomTextNeverEscapes(@ForAll("yamlish") String text) {
        assertTimeoutPreemptively(TRY_LIMIT, () -> loadsOrExplains(text));
    }

    @Property(tries = 300)
    void mutatedExampleNeverEscapes(@ForAll("mutations") String text) {
        assertTimeoutPreemptively(TRY_LIMIT, () -> loadsOrExplains(text));
    }

    @Property(tries = 200)
    void mutatedExampleAsAReloadNeverEscapesNorTouchesTheRunningRulesWhenItFails(
            @ForAll("mutations") String text) {
        assertTimeoutPreemptively(TRY_LIMIT, () -> {
            RuleSet running = RuleSetLoader.parse(EXAMPLE, "rules.yml", RuleSet.empty(), null);
            loadsOrExplains(text, running);
        });
    }

    @Property(tries = 300)
    void strategyAndLimitCombinationsReloadAllOrNothing(@ForAll("ruleFiles") String first,
            @ForAll("ruleFiles") String second) {
        assertTimeoutPreemptively(TRY_LIMIT, () -> {
            RuleSet running = loadsOrExplains(first, RuleSet.empty());
            loadsOrExplains(second, running == null ? RuleSet.empty() : running);
        });
    }

    /**
     * Small files of rules {@code r0..r2} (so two of them share ids) with strategy-specific limits; weighted so
     * that most rules pass the generic checks and reach each strategy's own validation and the build.
     */
    @Provide
    Arbitrary<String> ruleFiles() {
        Arbitrary<String> strategy = Arbitraries.frequencyOf(
                Tuple.of(3, Arbitraries.of("sliding-window", SmallQuotaStrategy.NAME)),
                Tuple.of(3, Arbitraries.of("fixed-window", "token-bucket", "leaky-bucket", "concurrency")),
                Tuple.of(1, Arbitraries.of("Small-Quota", "sliding-log")));
        Arbitrary<String> limit = Arbitraries.frequencyOf(Tuple.of(5, Arbitraries.of(SMALL_LIMITS)),
                Tuple.of(5, Arbitraries.of(LARGE_LIMITS)), Tuple.of(1, Arbitraries.of(BAD_LIMITS)));
        Arbitrary<String> capacity = Arbitraries.frequencyOf(Tuple.of(4, Arbitraries.just("")),
                Tuple.of(1, Arbitraries.oneOf(Arbitraries.of(SMALL_LIMITS), Arbitraries.of(LARGE_LIMITS))
                        .map(value -> "    capacity: " + value + "\n")));
        Arbitrary<String> window = Arbitraries.frequencyOf(Tuple.of(8, Arbitraries.of("1ms", "1s", "1m", "49d")),
                Tuple.of(1, Arbitraries.just("50d")));
        Arbitrary<String> rule = Combinators.combine(strategy, limit, capacity, window).as((name, max, cap, span) ->
                "    strategy: " + name + "\n    limit: " + max + "\n" + cap + "    window: " + span + "\n");
        return rule.list().ofMinSize(1).ofMaxSize(3).map(rules -> {
            StringBuilder text = new StringBuilder("version: 1\nrules:\n");
            for (int i = 0; i < rules.size(); i++) {
                text.append("  - id: r").append(i).append("\n    match: { http: { path: /r").append(i)
                        .append(" } }\n").append(rules.get(i));
            }
            return text.toString();
        });
    }

    @Provide
    Arbitrary<String> yamlish() {
        Arbitrary<Character> chars = Arbitraries.frequencyOf(
                Tuple.of(6, Arbitraries.of(':', '-', ' ', '\n', '[', ']', '{', '}', ',', '*', '&',
                        '!', '|', '>', '\'', '"', '#', '%', '@', '`', '?', '\t', '/', '$', '.')),
                Tuple.of(4, Arbitraries.chars().alpha().numeric()),
                Tuple.of(1, Arbitraries.chars()));
        return chars.list().ofMaxSize(300).map(list -> {
            StringBuilder text = new StringBuilder();
            list.forEach(text::append);
            return text.toString();
        });
    }

    @Provide
    Arbitrary<String> mutations() {
        List<String> tokens = List.of("*", "**", "{x}", "&a", "*a", "!!binary", "!!python/object", "0", "-1",
                "99999999999999999999", "1.5", "~", "null", "true", "[", "]", "{", "}", ": ", "\n", "\n  ", "- ",
                "'", "\"", "\t", "%YAML 1.1\n", "---\n", "...\n", "<<: *a\n", "key: ip", "arg:999", "path-param:q",
                "/api/{id}", "strategy: concurrency", "window: 0s", "limit: 0", "\u0000", "\uFEFF", "\uD800",
                "strategy: sliding-window", "sliding-window", "limit: 2097152", "limit: 3000000", "2147483648",
                "capacity: 2147483647", "strategy: small-quota", "small-quota", "SMALL-QUOTA", "limit: 1001",
                "strategy: sliding-log", "sliding-log");
        Arbitrary<Integer> positions = Arbitraries.integers().between(0, EXAMPLE.length());
        Arbitrary<String> edit = Combinators.combine(positions, positions, Arbitraries.of(tokens),
                Arbitraries.integers().between(0, 4)).as((from, to, token, kind) -> {
                    int start = Math.min(from, to);
                    int end = Math.min(Math.max(from, to), start + 40);
                    switch (kind) {
                        case 0:
                            return EXAMPLE.substring(0, start) + EXAMPLE.substring(end);
                        case 1:
                            return EXAMPLE.substring(0, start) + token + EXAMPLE.substring(start);
                        case 2:
                            return EXAMPLE.substring(0, start) + token + EXAMPLE.substring(end);
                        case 3:
                            return withValue(from, token);
                        default:
                            return EXAMPLE.substring(0, start) + EXAMPLE.substring(start, end)
                                    + EXAMPLE.substring(start);
                    }
                });
        return edit;
    }

    /**
     * The example with the value of the {@code key: value} line at or after {@code position} replaced by the
     * value part of {@code token} (so strategy names and limits land where a value is expected).
     */
    private static String withValue(int position, String token) {
        int colon = EXAMPLE.indexOf(": ", position);
        if (colon < 0) {
            colon = EXAMPLE.indexOf(": ");
        }
        int lineEnd = EXAMPLE.indexOf('\n', colon);
        String value = token.contains(": ") ? token.substring(token.indexOf(": ") + 2) : token;
        return EXAMPLE.substring(0, colon + 2) + value + EXAMPLE.substring(lineEnd < 0 ? EXAMPLE.length() : lineEnd);
    }

    @Example
    void billionLaughsIsRefused() {
        assertTimeoutPreemptively(TRY_LIMIT, () -> {
            StringBuilder bomb = new StringBuilder("a: &a [\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\",\"lol\"]\n");
            for (char c = 'b'; c <= 'j'; c++) {
                char previous = (char) (c - 1);
                bomb.append(c).append(": &").append(c).append(" [");
                for (int i = 0; i < 9; i++) {
                    bomb.append(i == 0 ? "" : ",").append('*').append(previous);
                }
                bomb.append("]\n");
            }
            assertThatThrownBy(() -> RuleSetLoader.parse(bomb.toString(), "rules.yml", RuleSet.empty(), null))
                    .isInstanceOf(RulesException.class);
        });
    }

    @Example
    void deepNestingIsRefused() {
        assertTimeoutPreemptively(TRY_LIMIT, () -> {
            String deep = "version: 1\nrules: " + "[".repeat(5_000) + "]".repeat(5_000) + "\n";
            assertThatThrownBy(() -> RuleSetLoader.parse(deep, "rules.yml", RuleSet.empty(), null))
                    .isInstanceOf(RulesException.class)
                    .hasMessageContaining("rules.yml:2:");
            String deepMaps = "version: 1\nrules:\n" + "{a: ".repeat(5_000) + "1" + "}".repeat(5_000) + "\n";
            assertThatThrownBy(() -> RuleSetLoader.parse(deepMaps, "rules.yml", RuleSet.empty(), null))
                    .isInstanceOf(RulesException.class);
        });
    }

    @Example
    void oversizedDocumentsAreRefused() {
        assertTimeoutPreemptively(TRY_LIMIT, () -> {
            String huge = "version: 1\nrules: []\n# " + "x".repeat(YamlTreeReader.MAX_FILE_BYTES) + "\n";
            assertThatThrownBy(() -> RuleSetLoader.parse(huge, "rules.yml", RuleSet.empty(), null))
                    .isInstanceOf(RulesException.class)
                    .hasMessage("rules.yml:1:1: the file is larger than 1048576 bytes (1 MiB), the most a rules file"
                            + " may be");
            String longScalar = "version: 1\nrules: []\nx: '" + "y".repeat(100_000) + "'\n";
            assertThatThrownBy(() -> RuleSetLoader.parse(longScalar, "rules.yml", RuleSet.empty(), null))
                    .isInstanceOf(RulesException.class)
                    .hasMessage("rules.yml:3:16385: the line is longer than 16384 characters, the most a rules file"
                            + " allows (break it up: YAML lists and strings may span lines)");
        });
    }

    @Example
    void manyErrorsDoNotExplode() {
        assertTimeoutPreemptively(TRY_LIMIT, () -> {
            StringBuilder text = new StringBuilder("version: 1\nrules:\n");
            for (int i = 0; i < 2_000; i++) {
                text.append("  - id: r").append(i).append("\n    limit: -1\n");
            }
            assertThatThrownBy(() -> RuleSetLoader.parse(text.toString(), "rules.yml", RuleSet.empty(), null))
                    .isInstanceOfSatisfying(RulesException.class, e -> {
                        // 6,000 found; the first 100 in file order are listed and the rest counted
                        assertThat(e.errors()).hasSize(FileProblems.MAX_REPORTED + 1);
                        assertThat(e.errors().get(FileProblems.MAX_REPORTED).message())
                                .isEqualTo("and 5900 more problems after this one, not listed");
                    });
        });
    }
}
