package dev.limiter.rules.compile;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.limiter.core.clock.ManualClock;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.compile.MatchKindOptions.Kind;
import dev.limiter.rules.compile.MatchKindOptions.Support;
import dev.limiter.rules.compile.MatchKindOptions.Variant;
import dev.limiter.rules.key.KeySpec;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What the rules file says holds, or is refused: every option on every match kind (and in {@code @Limit}) either
 * compiles or is refused at the option's line and column, exactly as {@link MatchKindOptions} says; and
 * docs/rules.md carries that same table.
 */
class MatchKindOptionsTest {

    private static final String DOCS = "docs/rules.md";
    private static final String HEADING = "## Which options apply to which match kind";

    /** Annotation attributes written as numbers; every other one is text. */
    private static final Set<String> NUMERIC_ATTRIBUTES = Set.of("limit", "capacity", "maxKeys");

    private final ManualClock clock = new ManualClock(1_000_000);

    static Stream<Arguments> pairs() {
        List<Arguments> pairs = new ArrayList<>();
        for (MatchKindOptions option : MatchKindOptions.values()) {
            for (Kind kind : Kind.values()) {
                pairs.add(Arguments.of(option, kind));
            }
        }
        return pairs.stream();
    }

    @ParameterizedTest(name = "{0} on {1}")
    @MethodSource("pairs")
    void eachOptionWorksOnAMatchKindOrIsRefusedWhereItIsWritten(MatchKindOptions option, Kind kind) {
        List<Variant> variants = option.variants(kind);
        assertThat(variants).as("ways to write %s", option.option).isNotEmpty();
        for (Variant variant : variants) {
            if (kind == Kind.ANNOTATION) {
                annotation(option, variant);
            } else {
                rule(option, kind, variant);
            }
        }
    }

    private void rule(MatchKindOptions option, Kind kind, Variant variant) {
        String marked = variant.file(kind);
        String text = marked.replace(String.valueOf(MatchKindOptions.MARK), "");
        Support expected = option.on(kind);
        if (expected == Support.YES) {
            RuleSet rules = load(text);
            assertThat(rules.rule("r").target()).isEqualTo(kind.target);
            return;
        }
        assertThat(expected).as("only @Limit lacks options").isEqualTo(Support.REFUSED);
        int mark = marked.indexOf(MatchKindOptions.MARK);
        assertThat(mark).as("%s marks where it is refused:%n%s", option, marked).isNotNegative();
        RulesException refused = catchThrowableOfType(() -> load(text), RulesException.class);
        assertThat(refused).as("refused:%n%s", text).isNotNull();
        assertThat(refused.errors()).as("one reason:%n%s", text).hasSize(1);
        RulesError error = refused.errors().get(0);
        assertThat(error.line() + ":" + error.column()).as("where:%n%s%n%s", text, error)
                .isEqualTo(position(marked, mark));
        assertThat(error.message()).isNotBlank();
    }

    /** The method rule of {@code variant} written as {@code @Limit} values, if every line of it is an attribute. */
    private void annotation(MatchKindOptions option, Variant variant) {
        Map<String, String> attributeOf = new LinkedHashMap<>();
        AnnotationRule.ATTRIBUTES.forEach((attribute, key) -> attributeOf.put(key, attribute));
        Map<String, Object> values = new LinkedHashMap<>();
        String marked = null;
        boolean expressible = variant.top().isEmpty() && variant.matchExtra().isEmpty();
        for (String line : variant.fullBody().split("\n")) {
            int colon = line.indexOf(": ");
            String key = colon < 0 ? line : line.substring(0, colon);
            String attribute = attributeOf.get(key);
            if (line.startsWith(" ") || line.startsWith("-") || colon < 0 || attribute == null) {
                expressible = false;
                break;
            }
            String value = line.substring(colon + 2);
            if (value.indexOf(MatchKindOptions.MARK) >= 0) {
                marked = attribute;
                value = value.replace(String.valueOf(MatchKindOptions.MARK), "");
            }
            values.put(attribute, NUMERIC_ATTRIBUTES.contains(attribute) ? (Object) Long.parseLong(value) : value);
        }
        Support expected = option.on(Kind.ANNOTATION);
        if (!expressible) {
            assertThat(expected).as("%s is no attribute of @Limit", option).isEqualTo(Support.NO_ATTRIBUTE);
            return;
        }
        assertThat(expected).as("%s is written as @Limit%s", option, values).isNotEqualTo(Support.NO_ATTRIBUTE);
        AnnotationRule compiled = AnnotationRule.compile("com.acme.Mailer", "send", values, clock);
        if (expected == Support.YES) {
            assertThat(compiled.problems()).as("@Limit%s", values).isEmpty();
            assertThat(compiled.rule().target()).isEqualTo(Rule.Target.METHOD);
            return;
        }
        // an annotation reads as its method rule: the same refusal, named by the attribute that states it
        String text = variant.file(Kind.METHOD).replace(String.valueOf(MatchKindOptions.MARK), "");
        RulesException asRule = catchThrowableOfType(() -> load(text), RulesException.class);
        assertThat(asRule).as("the method rule is refused too:%n%s", text).isNotNull();
        assertThat(marked).as("%s marks the refused attribute", option).isNotNull();
        assertThat(compiled.problems()).containsExactly(marked + ": " + asRule.errors().get(0).message());
    }

    @Test
    void theAnnotationColumnIsTheMethodColumnWhereverThereIsAnAttribute() {
        for (MatchKindOptions option : MatchKindOptions.values()) {
            Support annotation = option.on(Kind.ANNOTATION);
            if (annotation != Support.NO_ATTRIBUTE) {
                assertThat(annotation).as(option.option).isEqualTo(option.on(Kind.METHOD));
            }
            for (Kind kind : Kind.values()) {
                if (kind != Kind.ANNOTATION) {
                    assertThat(option.on(kind)).as("%s on %s", option.option, kind)
                            .isNotEqualTo(Support.NO_ATTRIBUTE);
                }
            }
        }
    }

    @Test
    void theColumnsAreEveryMatchKindAndTheAnnotation() {
        Set<Rule.Target> targets = new HashSet<>();
        for (Kind kind : Kind.values()) {
            if (kind != Kind.ANNOTATION) {
                targets.add(kind.target);
            }
        }
        assertThat(targets).containsExactlyInAnyOrder(Rule.Target.values());
    }

    /** The rows come from the compiler's own lists: a new rule key, key kind or condition needs its row. */
    @Test
    void everyRuleKeyKeyKindConditionAndAttributeHasItsRow() {
        Set<String> written = new HashSet<>();
        Set<String> labels = new HashSet<>();
        for (MatchKindOptions option : MatchKindOptions.values()) {
            labels.add(option.option);
            for (Kind kind : Kind.values()) {
                for (Variant variant : option.variants(kind)) {
                    for (String line : variant.body().split("\n")) {
                        if (!line.startsWith(" ") && line.contains(":")) {
                            written.add(line.substring(0, line.indexOf(':')));
                        }
                    }
                }
            }
        }
        Set<String> ruleKeys = new HashSet<>(Arrays.asList(RulesCompiler.RULE_KEYS));
        ruleKeys.removeAll(Set.of("id", "match"));
        assertThat(written).containsAll(ruleKeys);
        for (KeySpec.Kind key : KeySpec.Kind.values()) {
            String label = "`key: " + key.spelling() + (key.hasArgument() ? ":" + (key == KeySpec.Kind.ARG ? "N"
                    : "NAME") : "") + "`";
            assertThat(labels).as("a row for key kind %s", key).contains(label);
        }
        for (String condition : ConditionSection.KEYS) {
            assertThat(MatchKindOptions.MATCH_CONDITIONS.option).contains("`" + condition + "`");
            assertThat(labels).contains("`" + condition + "` in `unless` or an override's `when`");
        }
        Set<String> attributes = new HashSet<>();
        for (MatchKindOptions option : MatchKindOptions.values()) {
            if (option.on(Kind.ANNOTATION) != Support.NO_ATTRIBUTE) {
                for (Variant variant : option.variants(Kind.ANNOTATION)) {
                    for (String line : variant.body().split("\n")) {
                        attributes.add(line.substring(0, line.indexOf(':')));
                    }
                }
            }
        }
        assertThat(attributes).as("every @Limit attribute has a row")
                .containsAll(AnnotationRule.ATTRIBUTES.values());
    }

    @Test
    void docsRulesMdCarriesThisTable() throws IOException {
        List<String> lines = Files.readAllLines(docs(), StandardCharsets.UTF_8);
        int heading = lines.indexOf(HEADING);
        assertThat(heading).as("%s has a section '%s'", DOCS, HEADING).isNotNegative();
        int start = heading + 1;
        while (start < lines.size() && !lines.get(start).startsWith("|")) {
            assertThat(lines.get(start)).as("no other heading before the table").doesNotStartWith("#");
            start++;
        }
        List<List<String>> documented = new ArrayList<>();
        for (int i = start; i < lines.size() && lines.get(i).startsWith("|"); i++) {
            documented.add(cells(lines.get(i)));
        }
        List<List<String>> expected = new ArrayList<>();
        for (String line : MatchKindOptions.markdown()) {
            expected.add(cells(line));
        }
        assertThat(documented).as("the table of %s, which should read:%n%s", DOCS,
                String.join("\n", MatchKindOptions.markdown())).isEqualTo(expected);
    }

    private RuleSet load(String text) {
        return RuleSetLoader.parse(text, "rules.yml", null, clock);
    }

    /** The 1-based {@code line:column} of offset {@code at} of {@code text}. */
    private static String position(String text, int at) {
        int line = 1;
        int lineStart = 0;
        for (int i = 0; i < at; i++) {
            if (text.charAt(i) == '\n') {
                line++;
                lineStart = i + 1;
            }
        }
        return line + ":" + (at - lineStart + 1);
    }

    /** The cells of a markdown table line, trimmed; a separator line's dashes as written. */
    private static List<String> cells(String line) {
        String inner = line.trim();
        inner = inner.substring(1, inner.endsWith("|") ? inner.length() - 1 : inner.length());
        List<String> cells = new ArrayList<>();
        for (String cell : inner.split("\\|", -1)) {
            String trimmed = cell.trim();
            cells.add(trimmed.matches(":?-+:?") ? "---" : trimmed);
        }
        return cells;
    }

    /** docs/rules.md of this checkout: the build runs in the module's directory, a run from the root works too. */
    private static Path docs() {
        for (Path dir = Path.of("").toAbsolutePath(); dir != null; dir = dir.getParent()) {
            Path candidate = dir.resolve(DOCS);
            if (Files.isRegularFile(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError(DOCS + " not found above " + Path.of("").toAbsolutePath());
    }
}
