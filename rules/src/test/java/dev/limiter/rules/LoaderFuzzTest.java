package dev.limiter.rules;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.Example;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * The loader's one promise under hostile input: a valid rule set or a {@link RulesException}, never another
 * exception, a hang or an out-of-memory. Random text, mutations of the real example, and YAML bombs.
 */
class LoaderFuzzTest {

    private static final String EXAMPLE = example();

    private static String example() {
        try (InputStream in = LoaderFuzzTest.class.getResourceAsStream("/example.yml")) {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    /** Loads and reports the only two acceptable outcomes. */
    private static void loadsOrExplains(String text) {
        try {
            RuleSet rules = RuleSetLoader.parse(text, "rules.yml", RuleSet.empty(), null);
            assertThat(rules.rules()).isNotNull();
        } catch (RulesException e) {
            assertThat(e.errors()).isNotEmpty().allSatisfy(error -> {
                assertThat(error.line()).isPositive();
                assertThat(error.column()).isPositive();
                assertThat(error.message()).isNotBlank();
                assertThat(error.message()).doesNotContain("internal error");
            });
        }
    }

    @Property(tries = 200)
    void randomTextNeverEscapes(@ForAll("yamlish") String text) {
        loadsOrExplains(text);
    }

    @Property(tries = 300)
    void mutatedExampleNeverEscapes(@ForAll("mutations") String text) {
        loadsOrExplains(text);
    }

    @Provide
    Arbitrary<String> yamlish() {
        Arbitrary<Character> chars = Arbitraries.frequencyOf(
                net.jqwik.api.Tuple.of(6, Arbitraries.of(':', '-', ' ', '\n', '[', ']', '{', '}', ',', '*', '&',
                        '!', '|', '>', '\'', '"', '#', '%', '@', '`', '?', '\t', '/', '$', '.')),
                net.jqwik.api.Tuple.of(4, Arbitraries.chars().alpha().numeric()),
                net.jqwik.api.Tuple.of(1, Arbitraries.chars()));
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
                "/api/{id}", "strategy: concurrency", "window: 0s", "limit: 0", "\u0000", "\uFEFF", "\uD800");
        Arbitrary<Integer> positions = Arbitraries.integers().between(0, EXAMPLE.length());
        Arbitrary<String> edit = Combinators.combine(positions, positions, Arbitraries.of(tokens),
                Arbitraries.integers().between(0, 3)).as((from, to, token, kind) -> {
                    int start = Math.min(from, to);
                    int end = Math.min(Math.max(from, to), start + 40);
                    switch (kind) {
                        case 0:
                            return EXAMPLE.substring(0, start) + EXAMPLE.substring(end);
                        case 1:
                            return EXAMPLE.substring(0, start) + token + EXAMPLE.substring(start);
                        case 2:
                            return EXAMPLE.substring(0, start) + token + EXAMPLE.substring(end);
                        default:
                            return EXAMPLE.substring(0, start) + EXAMPLE.substring(start, end)
                                    + EXAMPLE.substring(start);
                    }
                });
        return edit;
    }

    @Example
    void billionLaughsIsRefused() {
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
    }

    @Example
    void deepNestingIsRefused() {
        String deep = "version: 1\nrules: " + "[".repeat(5_000) + "]".repeat(5_000) + "\n";
        assertThatThrownBy(() -> RuleSetLoader.parse(deep, "rules.yml", RuleSet.empty(), null))
                .isInstanceOf(RulesException.class)
                .hasMessageContaining("rules.yml:2:");
        String deepMaps = "version: 1\nrules:\n" + "{a: ".repeat(5_000) + "1" + "}".repeat(5_000) + "\n";
        assertThatThrownBy(() -> RuleSetLoader.parse(deepMaps, "rules.yml", RuleSet.empty(), null))
                .isInstanceOf(RulesException.class);
    }

    @Example
    void oversizedDocumentsAreRefused() {
        String huge = "version: 1\nrules: []\n# " + "x".repeat(YamlTreeReader.MAX_FILE_BYTES) + "\n";
        assertThatThrownBy(() -> RuleSetLoader.parse(huge, "rules.yml", RuleSet.empty(), null))
                .isInstanceOf(RulesException.class)
                .hasMessage("rules.yml:1:1: the file is larger than 1048576 bytes");
        String longScalar = "version: 1\nrules: []\nx: '" + "y".repeat(100_000) + "'\n";
        assertThatThrownBy(() -> RuleSetLoader.parse(longScalar, "rules.yml", RuleSet.empty(), null))
                .isInstanceOf(RulesException.class)
                .hasMessage("rules.yml:3:1: unknown key 'x' in the rules file");
    }

    @Example
    void manyErrorsDoNotExplode() {
        StringBuilder text = new StringBuilder("version: 1\nrules:\n");
        for (int i = 0; i < 2_000; i++) {
            text.append("  - id: r").append(i).append("\n    limit: -1\n");
        }
        assertThatThrownBy(() -> RuleSetLoader.parse(text.toString(), "rules.yml", RuleSet.empty(), null))
                .isInstanceOfSatisfying(RulesException.class, e -> assertThat(e.errors()).hasSize(6_000));
    }
}
