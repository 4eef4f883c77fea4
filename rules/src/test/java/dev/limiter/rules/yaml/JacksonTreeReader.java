package dev.limiter.rules.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.io.ContentReference;
import com.fasterxml.jackson.core.io.IOContext;
import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import java.io.IOException;
import java.io.StringReader;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * The rules' former YAML reader, on Jackson's streaming YAML parser (a full YAML 1.1 parser, SnakeYAML's,
 * underneath): kept as the oracle of {@link YamlTreeReaderEquivalenceTest}, which shows the hand-written reader
 * that replaced it builds the same trees, refuses what it refused, and refuses the YAML rules files do not use.
 */
final class JacksonTreeReader {

    static final int MAX_FILE_BYTES = YamlTreeReader.MAX_FILE_BYTES;
    static final int MAX_DEPTH = YamlTreeReader.MAX_DEPTH;

    private static final LoaderOptions LOADER_OPTIONS = loaderOptions();
    private static final StreamReadConstraints CONSTRAINTS = StreamReadConstraints.builder()
            .maxNestingDepth(MAX_DEPTH + 2)
            .maxStringLength(MAX_FILE_BYTES)
            .maxNumberLength(64)
            .maxDocumentLength(MAX_FILE_BYTES)
            .build();
    /** What a default {@code YAMLFactory} gives its parsers. */
    private static final int PARSER_FEATURES = JsonParser.Feature.collectDefaults();
    private static final int YAML_FEATURES = YAMLParser.Feature.collectDefaults();

    private JacksonTreeReader() {
    }

    /** SnakeYAML's limits for a rules file, as the reader over SnakeYAML's events set them. */
    static LoaderOptions loaderOptions() {
        LoaderOptions options = new LoaderOptions();
        options.setMaxAliasesForCollections(16);
        options.setNestingDepthLimit(MAX_DEPTH + 2);
        options.setCodePointLimit(MAX_FILE_BYTES);
        options.setAllowDuplicateKeys(true); // duplicates are reported by the reader, with both positions
        options.setAllowRecursiveKeys(false);
        return options;
    }

    static String describe(String problem, String context) {
        String text = problem == null ? "syntax error" : YamlTreeReader.firstLine(problem);
        return context == null ? text : text + " (" + YamlTreeReader.firstLine(context) + ")";
    }

    /**
     * The parser a {@code YAMLFactory} with these options would create, built directly: the factory class
     * drags in ~40 classes a one-off read never uses (JSON and YAML generators, async parsers, symbol tables,
     * recycler pools: with them a parse took ~30 ms more CPU in a fresh JVM). Locations in messages
     * never include the source text, as the factory's default ({@code INCLUDE_SOURCE_IN_LOCATION} off).
     */
    private static YAMLParser newParser(String text) {
        IOContext context = new IOContext(CONSTRAINTS, new BufferRecycler(), ContentReference.redacted(), false);
        return new YAMLParser(context, PARSER_FEATURES, YAML_FEATURES, LOADER_OPTIONS, null,
                new StringReader(text));
    }

    /** The root node, or null after adding the problem that stopped parsing. */
    static YamlNode read(String text, Problems problems) {
        if (text.length() > MAX_FILE_BYTES) {
            problems.add(1, 1, YamlTreeReader.tooLarge());
            return null;
        }
        try (JsonParser parser = newParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null) {
                problems.add(1, 1, "the file is empty: expected 'version: 1' and 'rules:'");
                return null;
            }
            YamlNode root = readValue(parser, problems, 0);
            if (root == null) {
                return null;
            }
            if (parser.nextToken() != null) {
                JsonLocation at = parser.currentTokenLocation();
                problems.add(line(at), column(at), "only one YAML document is allowed in a rules file");
                return null;
            }
            return root;
        } catch (JsonProcessingException e) {
            Throwable cause = e.getCause();
            if (cause instanceof org.yaml.snakeyaml.error.MarkedYAMLException marked) {
                addMarked(problems, marked);
            } else {
                JsonLocation at = e.getLocation();
                problems.add(line(at), column(at),
                        "invalid YAML: " + YamlTreeReader.firstLine(e.getOriginalMessage()));
            }
        } catch (org.yaml.snakeyaml.error.MarkedYAMLException e) {
            addMarked(problems, e);
        } catch (IOException | RuntimeException | StackOverflowError e) {
            problems.add(1, 1, "invalid YAML: " + YamlTreeReader.firstLine(String.valueOf(e.getMessage())));
        }
        return null;
    }

    private static YamlNode readValue(JsonParser parser, Problems problems, int depth) throws IOException {
        JsonToken token = parser.currentToken();
        JsonLocation at = parser.currentTokenLocation();
        int line = line(at);
        int column = column(at);
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            problems.add(line, column, "YAML aliases (*" + parser.getText()
                    + ") are not supported in rules files: write the value out");
            return null;
        }
        if (depth > MAX_DEPTH) {
            problems.add(line, column, "nesting is deeper than " + MAX_DEPTH + " levels");
            return null;
        }
        switch (token) {
            case START_OBJECT:
                return readMap(parser, problems, depth, line, column);
            case START_ARRAY:
                List<YamlNode> items = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    YamlNode item = readValue(parser, problems, depth + 1);
                    if (item == null) {
                        return null;
                    }
                    items.add(item);
                }
                return new YamlNode(YamlNode.Kind.LIST, line, column, null, Map.of(),
                        Collections.unmodifiableList(items));
            case VALUE_STRING:
                return scalar(YamlNode.Kind.STRING, line, column, parser.getText());
            case VALUE_NUMBER_INT:
                return scalar(YamlNode.Kind.INT, line, column, integerText(parser));
            case VALUE_NUMBER_FLOAT:
                return scalar(YamlNode.Kind.FLOAT, line, column, parser.getText());
            case VALUE_TRUE:
                return scalar(YamlNode.Kind.BOOL, line, column, "true");
            case VALUE_FALSE:
                return scalar(YamlNode.Kind.BOOL, line, column, "false");
            case VALUE_NULL:
                return scalar(YamlNode.Kind.NULL, line, column, "");
            default:
                problems.add(line, column, "unsupported YAML value");
                return null;
        }
    }

    private static YamlNode readMap(JsonParser parser, Problems problems, int depth, int line, int column)
            throws IOException {
        Map<String, YamlNode.YamlEntry> entries = new LinkedHashMap<>();
        while (parser.nextToken() == JsonToken.FIELD_NAME) {
            String key = parser.currentName();
            JsonLocation keyAt = parser.currentTokenLocation();
            if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
                problems.add(line(keyAt), column(keyAt), "YAML aliases are not supported in rules files");
                return null;
            }
            parser.nextToken();
            YamlNode value = readValue(parser, problems, depth + 1);
            if (value == null) {
                return null;
            }
            YamlTreeReader.addEntry(entries, new YamlNode.YamlEntry(key, line(keyAt), column(keyAt), value), problems);
        }
        return new YamlNode(YamlNode.Kind.MAP, line, column, null, Collections.unmodifiableMap(entries), List.of());
    }

    /** The integer in decimal, as the current reader writes it (or as written, if it is none). */
    private static String integerText(JsonParser parser) throws IOException {
        String raw = parser.getText();
        String decimal = YamlScalars.integerText(raw);
        return decimal == null ? raw : decimal;
    }

    private static YamlNode scalar(YamlNode.Kind kind, int line, int column, String text) {
        return new YamlNode(kind, line, column, text, Map.of(), List.of());
    }

    private static void addMarked(Problems problems, org.yaml.snakeyaml.error.MarkedYAMLException e) {
        org.yaml.snakeyaml.error.Mark mark = e.getProblemMark();
        int line = mark == null ? 1 : mark.getLine() + 1;
        int column = mark == null ? 1 : mark.getColumn() + 1;
        problems.add(line, column, "invalid YAML: " + describe(e.getProblem(), e.getContext()));
    }

    private static int line(JsonLocation at) {
        return at == null || at.getLineNr() < 1 ? 1 : at.getLineNr();
    }

    private static int column(JsonLocation at) {
        return at == null || at.getColumnNr() < 1 ? 1 : at.getColumnNr();
    }
}
