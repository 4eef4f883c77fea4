package dev.limiter.rules.yaml;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;
import org.yaml.snakeyaml.error.Mark;
import org.yaml.snakeyaml.error.MarkedYAMLException;
import org.yaml.snakeyaml.error.YAMLException;
import org.yaml.snakeyaml.events.AliasEvent;
import org.yaml.snakeyaml.events.Event;
import org.yaml.snakeyaml.events.ScalarEvent;
import org.yaml.snakeyaml.parser.Parser;
import org.yaml.snakeyaml.parser.ParserImpl;
import org.yaml.snakeyaml.reader.StreamReader;

/**
 * Reads YAML text into a {@link YamlNode} tree with positions, from SnakeYAML's event parser.
 *
 * <p>A rules file is untrusted input to a process that must not fall over, so reading is bounded here, not by
 * SnakeYAML's {@code LoaderOptions}: of those, the event parser honours only the code point limit (the nesting
 * depth and alias limits are the composer's, which is not used). So this reader refuses text above
 * {@link #MAX_FILE_BYTES}, a character YAML does not allow (with its position: SnakeYAML reports it by offset),
 * a line longer than {@link #MAX_LINE_CHARS} (the parser's cost grows with the square of a line's length),
 * nesting deeper than {@link #MAX_DEPTH} (this reader's recursion is bounded by it; SnakeYAML's parser and
 * scanner are iterative, and are stopped at that depth too), and any YAML alias at its first use: the rules grammar
 * never needs one, and refusing the first means a "billion laughs" bomb costs one pass over its text, never an
 * expansion. Any failure becomes a positioned problem; nothing else escapes.
 *
 * <p>Why the events and not Jackson's {@code YAMLParser}, which reads the same events: its parser base class
 * initialises {@code java.math.BigDecimal}, whose class initialiser on JDK 25 computes 5^65536 (~23 ms of
 * CPU in a fresh JVM, up to 50 ms of the rules thread while an application starts beside it). Scalars are typed
 * exactly as Jackson typed them ({@link YamlScalars}), so every rules file reads as before;
 * {@code YamlTreeReaderEquivalenceTest} compares the two readers.
 */
public final class YamlTreeReader {

    /**
     * The largest rules file, 1 MiB: over 200 times the largest in the project ({@code examples/rules.yml}, 4.6 KB
     * with comments; a rule is ~5 lines, ~150 bytes, so this is ~7,000 rules), small enough that reading,
     * decoding and parsing it stays within tens of MB of short-lived allocation and well under a second, and that
     * the watcher can hash it on every check. Documented in docs/rules.md.
     */
    public static final int MAX_FILE_BYTES = 1 << 20;
    /**
     * The longest line, in characters. SnakeYAML's reader grows its buffer by copying it for each 1,024
     * characters of one token, and a token never spans a line in that buffer, so the cost of a line grows with its
     * square: one 1 MiB line allocated 2 GB and took up to a second; 1 MiB in lines of this length allocates
     * ~40 MB. Real lines are under 200 characters; this leaves room for a generated flow list of ~800 paths.
     */
    public static final int MAX_LINE_CHARS = 16_384;
    /** The deepest nesting (a rule is 5 levels deep); also bounds this reader's recursion. */
    public static final int MAX_DEPTH = 32;

    private static final LoaderOptions LOADER_OPTIONS = loaderOptions();

    private final Parser parser;
    private final Problems problems;
    /** The last event read: where a problem without a position of its own is reported. */
    private Event last;

    private YamlTreeReader(String text, Problems problems) {
        this.parser = new ParserImpl(new StreamReader(text), LOADER_OPTIONS);
        this.problems = problems;
    }

    /** SnakeYAML's limits for a rules file (also the oracle's of the equivalence test). */
    static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(16);
        options.setNestingDepthLimit(MAX_DEPTH + 2);
        options.setCodePointLimit(MAX_FILE_BYTES);
        options.setAllowDuplicateKeys(true); // duplicates are reported by us, with both positions
        options.setAllowRecursiveKeys(false);
        return options;
    }

    /** The problem of a file above {@link #MAX_FILE_BYTES}, the same wherever it is found. */
    public static String tooLarge() {
        return "the file is larger than " + MAX_FILE_BYTES + " bytes (1 MiB), the most a rules file may be";
    }

    /** The root node, or null after adding the problem that stopped parsing. */
    public static YamlNode read(String text, Problems problems) {
        if (text.length() > MAX_FILE_BYTES) {
            problems.add(1, 1, tooLarge());
            return null;
        }
        if (!StreamReader.isPrintable(text)) {
            reportUnprintable(text, problems);
            return null;
        }
        if (reportedLongLine(text, problems)) {
            return null;
        }
        return new YamlTreeReader(text, problems).read();
    }

    /** Reports the first line longer than {@link #MAX_LINE_CHARS}, where it goes over; true if there is one. */
    private static boolean reportedLongLine(String text, Problems problems) {
        int line = 1;
        int lineStart = 0;
        for (int at = 0; at < text.length(); at++) {
            char c = text.charAt(at);
            if (c == '\n' || c == '\r') {
                line++;
                lineStart = at + 1;
                if (c == '\r' && at + 1 < text.length() && text.charAt(at + 1) == '\n') {
                    at++;
                    lineStart++;
                }
            } else if (at - lineStart >= MAX_LINE_CHARS) {
                problems.add(line, MAX_LINE_CHARS + 1, "the line is longer than " + MAX_LINE_CHARS
                        + " characters, the most a rules file allows (break it up: YAML lists and strings may span"
                        + " lines)");
                return true;
            }
        }
        return false;
    }

    /**
     * Reports the first character YAML does not allow (a NUL byte, most control characters) at its line and
     * column: SnakeYAML finds it when it buffers the text, ahead of the parse, and gives only an offset.
     */
    private static void reportUnprintable(String text, Problems problems) {
        int line = 1;
        int column = 1;
        for (int at = 0; at < text.length(); ) {
            int c = text.codePointAt(at);
            if (!StreamReader.isPrintable(c)) {
                problems.add(line, column, String.format("the file contains the character U+%04X, which YAML does"
                        + " not allow (a binary or wrongly encoded file?)", c));
                return;
            }
            if (c == '\n') {
                line++;
                column = 1;
            } else {
                column++;
            }
            at += Character.charCount(c);
        }
        problems.add(1, 1, "the file contains a character YAML does not allow");
    }

    private YamlNode read() {
        try {
            Event first = nextDocumentNode();
            if (first == null) {
                problems.add(1, 1, "the file is empty: expected 'version: 1' and 'rules:'");
                return null;
            }
            YamlNode root = readValue(first, 0);
            if (root == null) {
                return null;
            }
            Event extra = nextDocumentNode();
            if (extra != null) {
                problems.add(line(extra.getStartMark()), column(extra.getStartMark()),
                        "only one YAML document is allowed in a rules file");
                return null;
            }
            return root;
        } catch (MarkedYAMLException e) {
            Mark mark = e.getProblemMark();
            problems.add(line(mark), column(mark), "invalid YAML: " + describe(e.getProblem(), e.getContext()));
        } catch (YAMLException e) {
            Mark at = last == null ? null : last.getEndMark();
            problems.add(line(at), column(at), "invalid YAML: " + firstLine(e.getMessage()));
        } catch (RuntimeException | StackOverflowError e) {
            problems.add(1, 1, "invalid YAML: " + firstLine(String.valueOf(e.getMessage())));
        }
        return null;
    }

    private Event next() {
        last = parser.getEvent();
        return last;
    }

    /** The next node at document level (document and stream markers skipped), or null at the end of the text. */
    private Event nextDocumentNode() {
        while (true) {
            Event event = next();
            switch (event.getEventId()) {
                case StreamStart, DocumentStart, DocumentEnd, Comment:
                    continue;
                case StreamEnd:
                    return null;
                default:
                    return event;
            }
        }
    }

    private YamlNode readValue(Event event, int depth) {
        Mark at = event.getStartMark();
        int line = line(at);
        int column = column(at);
        if (event instanceof AliasEvent alias) {
            problems.add(line, column, "YAML aliases (*" + alias.getAnchor()
                    + ") are not supported in rules files: write the value out");
            return null;
        }
        if (depth > MAX_DEPTH) {
            problems.add(line, column, "nesting is deeper than " + MAX_DEPTH + " levels");
            return null;
        }
        switch (event.getEventId()) {
            case MappingStart:
                return readMap(depth, line, column);
            case SequenceStart:
                List<YamlNode> items = new ArrayList<>();
                for (Event item = next(); !item.is(Event.ID.SequenceEnd); item = next()) {
                    YamlNode node = readValue(item, depth + 1);
                    if (node == null) {
                        return null;
                    }
                    items.add(node);
                }
                return new YamlNode(YamlNode.Kind.LIST, line, column, null, Map.of(),
                        Collections.unmodifiableList(items));
            case Scalar:
                YamlNode scalar = YamlScalars.node((ScalarEvent) event, line, column);
                if (scalar == null) {
                    problems.add(line, column, "unsupported YAML value");
                }
                return scalar;
            default:
                problems.add(line, column, "unsupported YAML value");
                return null;
        }
    }

    private YamlNode readMap(int depth, int line, int column) {
        Map<String, YamlNode.YamlEntry> entries = new LinkedHashMap<>();
        for (Event key = next(); !key.is(Event.ID.MappingEnd); key = next()) {
            Mark keyAt = key.getStartMark();
            if (!(key instanceof ScalarEvent scalarKey)) {
                problems.add(line(keyAt), column(keyAt), key instanceof AliasEvent
                        ? "YAML aliases are not supported in rules files"
                        : "a mapping key must be a plain value, not a " + (key.is(Event.ID.MappingStart)
                                ? "mapping" : "list"));
                return null;
            }
            String name = scalarKey.getValue();
            YamlNode value = readValue(next(), depth + 1);
            if (value == null) {
                return null;
            }
            addEntry(entries, new YamlNode.YamlEntry(name, line(keyAt), column(keyAt), value), problems);
        }
        return new YamlNode(YamlNode.Kind.MAP, line, column, null, Collections.unmodifiableMap(entries), List.of());
    }

    /** Adds {@code entry} to a mapping's {@code entries}, or reports it as a duplicate of the first one. */
    static void addEntry(Map<String, YamlNode.YamlEntry> entries, YamlNode.YamlEntry entry, Problems problems) {
        YamlNode.YamlEntry first = entries.get(entry.key());
        if (first != null) {
            problems.add(entry, "duplicate key '" + Fields.shorten(entry.key()) + "' (first given at line "
                    + first.line() + ")");
        } else {
            entries.put(entry.key(), entry);
        }
    }

    static String describe(String problem, String context) {
        String text = problem == null ? "syntax error" : firstLine(problem);
        return context == null ? text : text + " (" + firstLine(context) + ")";
    }

    static String firstLine(String message) {
        if (message == null) {
            return "syntax error";
        }
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).trim();
    }

    /** 1-based; SnakeYAML's marks are 0-based. */
    private static int line(Mark mark) {
        return mark == null ? 1 : mark.getLine() + 1;
    }

    private static int column(Mark mark) {
        return mark == null ? 1 : mark.getColumn() + 1;
    }
}
