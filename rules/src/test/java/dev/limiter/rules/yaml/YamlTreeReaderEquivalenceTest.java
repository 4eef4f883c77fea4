package dev.limiter.rules.yaml;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.rules.RulesException;
import dev.limiter.rules.compile.FileProblems;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.BiFunction;
import java.util.stream.Stream;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The SnakeYAML event reader ({@link YamlTreeReader}) against the Jackson reader it replaced
 * ({@link JacksonTreeReader}): for every input, the same tree (kinds, texts, positions, key order) or the same
 * problems (positions and messages). Inputs: every YAML file of the tests and the examples, each scalar form YAML
 * 1.1 knows (as a value, a list item and a key), structural edge cases, and random mutations of the example.
 *
 * <p>Differences are deliberate, and checked as such: a mapping key that is not a scalar (a list, a mapping or
 * an alias) gets a message of ours instead of Jackson's "Expected a field name (Scalar value in YAML), got this
 * instead: &lt;event dump&gt;"; an integer longer than Jackson's 64-character number limit is read (as too large
 * for any field, the rules compiler rejects it with its own message); and an explicitly tagged {@code !!int}
 * whose digits are not digits of its base is a string instead of a Jackson number error.
 */
class YamlTreeReaderEquivalenceTest {

    private static final BiFunction<String, Problems, YamlNode> CURRENT = YamlTreeReader::read;
    private static final BiFunction<String, Problems, YamlNode> ORACLE = JacksonTreeReader::read;

    static Stream<Path> yamlFiles() throws IOException {
        List<Path> files = new ArrayList<>();
        for (Path root : List.of(Path.of("src/test/resources"), Path.of("../examples"), Path.of("../benchmarks"),
                Path.of("../docs"))) {
            if (!Files.isDirectory(root)) {
                continue;
            }
            try (Stream<Path> walk = Files.walk(root)) {
                walk.filter(p -> p.toString().endsWith(".yml") || p.toString().endsWith(".yaml"))
                        .filter(p -> !p.toString().contains("/target/"))
                        .sorted()
                        .forEach(files::add);
            }
        }
        return files.stream();
    }

    @Test
    void theCorpusHasTheExamplesAndTheBadFiles() throws IOException {
        assertThat(yamlFiles().map(Path::toString).toList())
                .hasSizeGreaterThan(60)
                .anyMatch(p -> p.endsWith("examples/rules.yml"))
                .anyMatch(p -> p.contains("/bad/"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("yamlFiles")
    void readsEveryYamlFileOfTheProjectAsJacksonDid(Path file) throws IOException {
        assertSameOutcome(Files.readString(file, StandardCharsets.UTF_8));
    }

    static Stream<String> scalars() {
        return Stream.of(
                // integers, including the forms only YAML 1.1 knows
                "10", "-10", "+10", "0", "-0", "+0", "0x1F", "-0x1f", "0X1F", "0b101", "-0b1_01", "017", "0_17",
                "1_000", "0x_1F", "99999999999999999999999", "0x7fffffffffffffffff", "0b" + "1".repeat(70),
                "1" + "0".repeat(45), "1:30", "190:20:30", "-1:30", "0o17",
                // decimals
                "1.5", "-1.5", "+1.5", "1e3", "1.0e+3", "6.8523015e+5", "685.230_15e+03", "1_0.5", ".5", ".inf",
                "-.inf", "+.INF", ".nan", ".NaN", "190:20:30.15",
                // booleans and empties
                "true", "True", "TRUE", "false", "False", "FALSE", "yes", "Yes", "YES", "no", "No", "NO", "on", "On",
                "ON", "off", "Off", "OFF", "y", "Y", "n", "N", "tRUE", "~", "null", "Null", "NULL", "nULL", "",
                // other plain scalars the resolver types
                "2001-12-14", "2001-12-14t21:59:43.10-05:00", "<<", "=", "abc", "1.2.3", "10s", "1m", "/api/**",
                "10.0.0.0/8",
                // quoted
                "'10'", "\"10\"", "''", "\"\"", "'true'", "\"~\"", "'null'", "'1:30'",
                // explicit tags
                "!!str 10", "!!int 10", "!!int 0x1F", "!!int 1:30", "!!int ''", "!!float 1", "!!float ''",
                "!!float abc", "!!bool yes", "!!bool maybe", "!!bool ''", "!!null x", "!!null ''", "!!null ~",
                "!!str", "!custom 5", "! 10", "! yes", "!!timestamp 2001-12-14", "!<tag:yaml.org,2002:int> 42",
                "!<tag:yaml.org,2002:int,extra> 42", "!!binary aGVsbG8=",
                // anchors without aliases
                "&a 10", "&b yes");
    }

    @ParameterizedTest(name = "[{0}]")
    @MethodSource("scalars")
    void typesEachScalarAsJacksonDid(String scalar) {
        assertSameOutcome("value: " + scalar + "\n");
        assertSameOutcome("- " + scalar + "\n- next\n");
        assertSameOutcome("flow: [" + scalar + ", x]\n");
        if (!scalar.isEmpty() && !scalar.startsWith("!!binary")) {
            assertSameOutcome(scalar + ": value\n");
        }
    }

    static Stream<String> structures() {
        return Stream.of(
                "", " ", "\n\n", "# only a comment\n", "---\n", "...\n", "--- \n...\n", "---\na: 1\n...\n",
                "a: 1\n---\nb: 2\n", "a: 1\n---\n", "a: 1\n--- \n...\n--- x\n", "%YAML 1.1\n---\na: 1\n",
                "%YAML 1.1\n---\n", "\uFEFFa: 1\n", "a: 1\r\nb: 2\r\n", "a:\n\tb: 1\n", "a: 'unclosed\n",
                "a: \"unclosed\n", "a: b: c\n", "- a\nb: c\n", "a:\n  - 1\n - 2\n", "[1, 2\n", "{a: 1\n",
                "a: 1\na: 2\n", "a: 1\nb:\n  c: 1\n  c: 2\na: 3\n", "x: &a {b: 1}\ny: *a\n", "x: &a 1\ny: *a\n",
                "- *unknown\n", "a: *a\n", "&a x: 1\n", "x: 1\n*x : 2\n", "? [a, b]\n: 1\n", "? {a: 1}\n: 2\n",
                "{[1]: 2}\n", "? complex\n: value\n", "a: [1, [2, [3]]]\n", "a: {b: {c: {}}}\n", "a: []\nb: {}\n",
                "{\"a\":\"b\",\"c\":[1]}\n", "x: {'a':1, \"b\":{\"c\":\"d\"}}\n", "x: {a:1}\n", "x: {yes, no: 1, ~: 2, 0x1F: 3}\n", "x: [on: 1, off]\n",
                "a: |\n  text\n  more\n", "a: >\n  folded\n  text\n", "a: \"esc\\x41\\u00e9\"\n",
                "a: 'it''s'\n", "a: \"\\q\"\n", "a: @x\n", "a: `x\n", "- - - x\n", "rules:\n- id: a\n  limit: 1\n",
                "version: 1\nrules: []\n", "a: 1 # c\n# c\nb: 2\n", "a:\n", "a: !!map {b: 1}\n",
                "a: !!seq [1]\n", "a: !!set {x}\n", "a: !!omap [a: 1]\n", "ü: é\n", "a: \u0001\n",
                nested(31, "a:\n", "  "), nested(32, "a:\n", "  "), nested(33, "a:\n", "  "),
                nested(40, "a:\n", "  "), nested(31, "-\n", "  "), nested(33, "-\n", "  "), nested(60, "- ", ""),
                "[".repeat(40) + "]".repeat(40) + "\n", "{a: ".repeat(35) + "1" + "}".repeat(35) + "\n");
    }

    @ParameterizedTest(name = "[{index}]")
    @MethodSource("structures")
    void readsEachStructureAsJacksonDid(String text) {
        assertSameOutcome(text);
    }

    @Property(tries = 400)
    void readsMutatedExamplesAsJacksonDid(@ForAll("mutatedExamples") String text) {
        assertSameOutcome(text);
    }

    @Provide
    Arbitrary<String> mutatedExamples() {
        String example = example();
        Arbitrary<Integer> at = Arbitraries.integers().between(0, example.length() - 1);
        Arbitrary<String> inserted = Arbitraries.of(":", "-", " ", "\n", "'", "\"", "[", "]", "{", "}", "&a ",
                "*a", "!!int ", "? ", "#", "\t", "yes", "0x", "~", ",", "|", ">", "%", "@", "---\n");
        return Arbitraries.oneOf(
                Arbitraries.just(example),
                at.tuple2().map(t -> cut(example, Math.min(t.get1(), t.get2()), Math.max(t.get1(), t.get2()))),
                at.flatMap(i -> inserted.map(s -> example.substring(0, i) + s + example.substring(i))),
                at.flatMap(i -> inserted.tuple2().map(s -> example.substring(0, i) + s.get1() + s.get2()
                        + example.substring(i))),
                at.map(i -> example.substring(0, i)));
    }

    /**
     * Generated rules-like files in every form of the subset (block and flow collections nested in each other,
     * indentless and compact lists, each scalar style, values spanning lines, comments and blank lines, document
     * markers): read to the same tree as Jackson's, never refused.
     */
    @Property(tries = 500)
    void readsGeneratedSubsetFilesAsJacksonDid(@ForAll long seed) {
        String text = new SubsetFile(new java.util.Random(seed)).render();
        String current = outcome(CURRENT, text);
        assertThat(current).as("read of:%n%s", text).doesNotStartWith("ERR ").isEqualTo(outcome(ORACLE, text));
    }

    /** Writes a random file of the subset. */
    private static final class SubsetFile {
        private static final String[] PLAIN = {"abc", "10", "-5", "0", "1.5", "1e3", "0x1F", "1_000", "yes", "off",
            "True", "~", "null", "/api/**", "10.0.0.0/8", "com.acme.*Mailer", "a b  c", "x:y", "http://h:80/p?q=1",
            "send*", "GET", "1:30", "2001-12-14", "-1-", "a-b", "é ü", "arg:0", "path-param:id", "${rule}", "a#b",
            "a'b\"c", ".inf", "-.5", "+1"};
        private static final String[] QUOTED = {"'it''s'", "'a: b'", "'#x'", "'10'", "''", "\"\"", "\"yes\"",
            "\"tab\\there\"", "\"\\u00e9\\x41\\U0001F600\"", "\"a \\\"q\\\" \\\\\"", "'{\"error\":1}'",
            "\"\\0\\a\\b\\e\\f\\n\\r\\v\\N\\_\\L\\P\\ \"", "'[not, a, list]'", "\"${retry_after}\""};
        private static final String[] KEYS = {"id", "limit", "a-b", "x_y", "k", "on", "10", "'q k'", "\"d k\"",
            "with space", "x.y"};

        private final java.util.Random random;
        private final StringBuilder out = new StringBuilder();
        private int keys;

        SubsetFile(java.util.Random random) {
            this.random = random;
        }

        String render() {
            if (chance(20)) {
                out.append(chance(50) ? "---\n" : "--- # start\n");
            }
            comments(0);
            map(0, 0);
            if (chance(20)) {
                out.append("...\n");
            }
            return out.toString();
        }

        private boolean chance(int percent) {
            return random.nextInt(100) < percent;
        }

        private String pick(String[] values) {
            return values[random.nextInt(values.length)];
        }

        private String key() {
            String key = pick(KEYS);
            String unique = String.valueOf(keys++);
            return key.endsWith("'") || key.endsWith("\"")
                    ? key.substring(0, key.length() - 1) + unique + key.charAt(key.length() - 1) : key + unique;
        }

        private void comments(int indent) {
            while (chance(15)) {
                out.append(chance(50) ? "" : " ".repeat(random.nextInt(indent + 3)) + "# note: - [x] {y}")
                        .append('\n');
            }
        }

        private void lineEnd() {
            if (chance(15)) {
                out.append(" ".repeat(1 + random.nextInt(3))).append("# comment: a, b");
            }
            out.append('\n');
        }

        /** A block mapping's entries, each on its own line at {@code indent}. */
        private void map(int indent, int depth) {
            int entries = 1 + random.nextInt(4);
            for (int i = 0; i < entries; i++) {
                out.append(" ".repeat(indent)).append(key()).append(':');
                blockValue(indent, depth, false);
                comments(indent);
            }
        }

        /** A block list's items at {@code indent}. */
        private void list(int indent, int depth) {
            int items = 1 + random.nextInt(4);
            for (int i = 0; i < items; i++) {
                out.append(" ".repeat(indent)).append('-');
                int choice = depth >= 5 ? 0 : random.nextInt(4);
                if (choice == 1) { // a compact mapping: its first key on the item's line
                    out.append(' ').append(key()).append(':');
                    blockValue(indent + 2, depth + 1, false);
                    if (chance(60)) {
                        map(indent + 2, depth + 1);
                    }
                } else if (choice == 2) {
                    out.append(' ');
                    flow(depth + 1, indent + 2);
                    lineEnd();
                } else {
                    blockValue(indent, depth, true);
                }
                comments(indent);
            }
        }

        /** What follows a key's ':' or an item's '-' at {@code indent}. */
        private void blockValue(int indent, int depth, boolean item) {
            int choice = depth >= 5 ? random.nextInt(3) : random.nextInt(7);
            switch (choice) {
                case 0 -> {
                    out.append(' ').append(chance(60) ? pick(PLAIN) : pick(QUOTED));
                    lineEnd();
                }
                case 1 -> { // a value over more lines
                    boolean quoted = chance(50);
                    String quote = chance(50) ? "'" : "\"";
                    String first = pick(PLAIN);
                    if (first.contains(":") || first.contains("'") || first.equals("~")) {
                        first = "abc";
                    }
                    out.append(' ').append(quoted ? quote : "").append(first).append('\n');
                    if (chance(30)) {
                        out.append('\n');
                    }
                    out.append(" ".repeat(indent + 1 + random.nextInt(3))).append("second part")
                            .append(quoted ? quote : "");
                    lineEnd();
                }
                case 2 -> {
                    if (item) {
                        out.append(' ').append(pick(PLAIN));
                        lineEnd();
                    } else {
                        lineEnd(); // empty
                    }
                }
                case 3 -> {
                    out.append(' ');
                    flow(depth + 1, indent + 2);
                    lineEnd();
                }
                case 4 -> {
                    lineEnd();
                    comments(indent);
                    map(indent + 2 + random.nextInt(2) * 2, depth + 1);
                }
                default -> {
                    lineEnd();
                    comments(indent);
                    list(item || chance(50) ? indent + 2 : indent, depth + 1); // a mapping's list may be indentless
                }
            }
        }

        /** A flow collection, maybe over lines indented at least {@code indent}. */
        private void flow(int depth, int indent) {
            boolean isList = chance(50);
            out.append(isList ? '[' : '{');
            int size = random.nextInt(4);
            for (int i = 0; i < size; i++) {
                if (i > 0) {
                    out.append(',');
                }
                if (chance(20)) {
                    out.append('\n').append(" ".repeat(indent + random.nextInt(3)));
                } else if (i > 0 || chance(30)) {
                    out.append(' ');
                }
                if (!isList) {
                    out.append(key()).append(chance(15) ? ":" + (chance(50) ? "" : " ") : ": ");
                    if (out.charAt(out.length() - 1) == ':') {
                        continue; // an empty value
                    }
                }
                if (depth < 5 && chance(25)) {
                    flow(depth + 1, indent);
                } else {
                    String value = chance(70) ? pick(PLAIN) : pick(QUOTED);
                    boolean flowIndicators = value.chars().anyMatch(c -> ",?[]{}".indexOf(c) >= 0);
                    boolean plain = !value.startsWith("'") && !value.startsWith("\"");
                    out.append(plain && flowIndicators ? "z" : value);
                }
            }
            if (size > 0 && chance(10)) {
                out.append(',');
            }
            out.append(chance(20) ? " " : "").append(isList ? ']' : '}');
        }
    }

    private static String cut(String text, int from, int to) {
        return text.substring(0, from) + text.substring(Math.min(text.length(), to + 1));
    }

    private static String example() {
        try {
            return Files.readString(Path.of("src/test/resources/example.yml"), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    private static String nested(int depth, String level, String indent) {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < depth; i++) {
            text.append(indent.repeat(i)).append(level);
        }
        return text.append(indent.repeat(depth)).append("x\n").toString();
    }

    /** The messages with which the reader refuses YAML the rules files do not use, which the oracle reads. */
    static final List<String> REFUSALS = List.of("YAML anchors (&", "YAML aliases (*", "YAML tags (",
            "YAML block scalars (", "YAML complex keys (", "YAML directives (", "a tab outside a quoted value");

    private static void assertSameOutcome(String text) {
        String current = outcome(CURRENT, text);
        String oracle = outcome(ORACLE, text);
        if (oracle.contains("Number value length") && oracle.contains("exceeds the maximum allowed (64")) {
            // read (as too large for any field, the rules compiler rejects it with its own message)
            assertThat(current).as("a number longer than Jackson's limit, in:%n%s", text).contains("INT @");
            return;
        }
        if (oracle.startsWith("ERR ")) {
            // the oracle's messages are a general parser's; the reader refuses the same text in its own words
            assertThat(current).as("a text the oracle refuses (%s), in:%n%s", oracle, text).startsWith("ERR ")
                    .matches("(?s)ERR rules\\.yml:\\d+:\\d+: .*");
            if (oracle.contains("invalid YAML") || oracle.contains("special characters are not allowed")) {
                return;
            }
            if (REFUSALS.stream().noneMatch(current::contains)) {
                assertThat(current).as("read of:%n%s", text).isEqualTo(oracle);
            }
            return;
        }
        if (current.startsWith("ERR ") && REFUSALS.stream().anyMatch(current::contains)) {
            return; // YAML a rules file does not use, refused at its position
        }
        assertThat(current).as("read of:%n%s", text).isEqualTo(oracle);
    }

    /** The tree, or the problems, of one read, as text. */
    private static String outcome(BiFunction<String, Problems, YamlNode> reader, String text) {
        FileProblems problems = new FileProblems("rules.yml");
        YamlNode root = reader.apply(text, problems);
        try {
            problems.throwIfAny();
        } catch (RulesException e) {
            return "ERR " + e.getMessage();
        }
        StringBuilder dump = new StringBuilder();
        dump(root, dump, "");
        return dump.toString();
    }

    private static void dump(YamlNode node, StringBuilder out, String indent) {
        if (node == null) {
            out.append(indent).append("(no node)\n");
            return;
        }
        out.append(indent).append(node.kind()).append(" @").append(node.line()).append(':').append(node.column());
        if (node.text() != null) {
            out.append(" [").append(node.text()).append(']');
        }
        out.append('\n');
        for (Map.Entry<String, YamlNode.YamlEntry> entry : node.entries().entrySet()) {
            YamlNode.YamlEntry e = entry.getValue();
            out.append(indent).append("  key [").append(e.key()).append("] @").append(e.line()).append(':')
                    .append(e.column()).append('\n');
            dump(e.value(), out, indent + "    ");
        }
        for (YamlNode item : node.items()) {
            dump(item, out, indent + "  ");
        }
    }
}
