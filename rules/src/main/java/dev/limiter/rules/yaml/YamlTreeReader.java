package dev.limiter.rules.yaml;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads the YAML subset of a rules file into a {@link YamlNode} tree with positions, by hand.
 *
 * <p>The subset: block mappings and lists, flow mappings {@code { a: b }} and lists {@code [x, y]}, nested;
 * plain, single- and double-quoted scalars (with the double-quoted escapes), each of which may span lines as
 * YAML folds them; comments; {@code ---} before and {@code ...} after the one document. Scalars are typed as
 * Jackson's YAML parser typed them ({@link YamlScalars}), so every rules file reads as when the rules were read
 * through Jackson, and positions are the ones SnakeYAML gave (1-based lines and columns, a column counted in code
 * points). Everything else YAML has is refused at its position with a message saying so: anchors and aliases,
 * tags, block scalars ({@code |} and {@code >}), complex keys ({@code ?}), directives ({@code %YAML}), more than
 * one document, and a tab anywhere outside a quoted value or a comment. {@code YamlTreeReaderEquivalenceTest}
 * compares this reader with Jackson's over every YAML file of the project and generated text.
 *
 * <p>Why not a YAML library: a full parser (SnakeYAML's event parser, ~80 classes) costs ~25-30 ms of CPU in the
 * fresh JVM the agent starts in, for a grammar the rules never use. Jackson's {@code YAMLParser} on top also
 * initialises {@code java.math.BigDecimal} (~23 ms on JDK 25).
 *
 * <p>A rules file is untrusted input to a process that must not fall over, so reading is bounded: text above
 * {@link #MAX_FILE_BYTES}, a character YAML does not allow, a line longer than {@link #MAX_LINE_CHARS} and
 * nesting deeper than {@link #MAX_DEPTH} (which also bounds the recursion) are refused; there is no alias to
 * expand. Any failure becomes a positioned problem; nothing else escapes.
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
     * The longest line, in characters. Real lines are under 200 characters; this leaves room for a generated flow
     * list of ~800 paths, and keeps what one line can cost a reader (YAML parsers' buffers often grow with the
     * square of a token's length) bounded.
     */
    public static final int MAX_LINE_CHARS = 16_384;
    /** The deepest nesting (a rule is 5 levels deep); also bounds this reader's recursion. */
    public static final int MAX_DEPTH = 32;

    private final String text;
    private final Problems problems;
    /** The next character to read. */
    private int pos;
    /** The 1-based line of {@link #pos}. */
    private int line = 1;
    /** Where {@link #pos}'s line starts. */
    private int lineStart;

    /** The text of the last scalar {@link #flowNode} read, as written (null after a collection). */
    private String lastFlowScalar;

    private YamlTreeReader(String text, Problems problems) {
        this.text = text;
        this.problems = problems;
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
        if (!isPrintable(text)) {
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
     * column: checked ahead of the parse, as YAML parsers do.
     */
    private static void reportUnprintable(String text, Problems problems) {
        int line = 1;
        int column = 1;
        for (int at = 0; at < text.length(); ) {
            int c = text.codePointAt(at);
            if (!isPrintable(c)) {
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

    /** YAML's printable characters (tab, line breaks, NEL and the printable ranges of Unicode). */
    static boolean isPrintable(int c) {
        return (c >= 0x20 && c <= 0x7E) || c == 0x9 || c == 0xA || c == 0xD || c == 0x85
                || (c >= 0xA0 && c <= 0xD7FF) || (c >= 0xE000 && c <= 0xFFFD) || (c >= 0x10000 && c <= 0x10FFFF);
    }

    private static boolean isPrintable(String text) {
        for (int at = 0; at < text.length(); ) {
            int c = text.codePointAt(at);
            if (!isPrintable(c)) {
                return false;
            }
            at += Character.charCount(c);
        }
        return true;
    }

    /** A problem that stops the read, at a position; thrown only inside this reader. */
    private static final class Stop extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final int line;
        final int column;

        Stop(int line, int column, String message) {
            super(message, null, false, false);
            this.line = line;
            this.column = column;
        }
    }

    private YamlNode read() {
        try {
            if (peek(0) == '\uFEFF') {
                pos++;
                lineStart = pos; // columns count from after it
            }
            skipToContent();
            refuseDirective();
            if (atMarker("---")) {
                pos += 3;
                skipToContent();
                if (atMarker("---")) { // an empty document, then another
                    pos += 3;
                    skipToContent();
                    throw stop("only one YAML document is allowed in a rules file");
                }
                if (atEnd() || atMarker("...")) { // an explicit document with nothing in it
                    return YamlScalars.node("", true, line, column());
                }
            }
            skipMarkers();
            if (atEnd()) {
                problems.add(1, 1, "the file is empty: expected 'version: 1' and 'rules:'");
                return null;
            }
            YamlNode root = node(-1, 0, Context.ROOT);
            skipToContent();
            if (!atEnd() && atMarker("...")) {
                pos += 3;
                skipToContent();
            }
            if (!atEnd() && atMarker("---")) {
                pos += 3;
                skipToContent();
                throw stop("only one YAML document is allowed in a rules file");
            }
            if (!atEnd()) {
                throw stop(pos - lineStart > 0
                        ? "invalid YAML: this line is indented more than the block it is in"
                        : "invalid YAML: expected the end of the file after the first value");
            }
            return root;
        } catch (Stop e) {
            problems.add(e.line, e.column, e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            problems.add(line, column(), "invalid YAML: " + firstLine(String.valueOf(e.getMessage())));
        }
        return null;
    }

    /** Skips blank lines, comments and document markers ({@code ---}, {@code ...}) ahead of a document. */
    private void skipMarkers() {
        while (true) {
            skipToContent();
            if (atMarker("---") || atMarker("...")) {
                pos += 3;
            } else {
                refuseDirective();
                return;
            }
        }
    }

    private void refuseDirective() {
        if (peek(0) == '%' && pos == lineStart) {
            throw stop("YAML directives (" + word() + ") are not supported in rules files: remove the line");
        }
    }

    private enum Context { ROOT, MAP_VALUE, LIST_ITEM }

    /** A block node whose first character is at {@link #pos}, in a block indented {@code parent} columns. */
    private YamlNode node(int parent, int depth, Context context) {
        int l = line;
        int c = column();
        if (depth > MAX_DEPTH) {
            throw stop("nesting is deeper than " + MAX_DEPTH + " levels");
        }
        char ch = peek(0);
        if (ch == '-' && isBlankOrEnd(peek(1))) {
            if (context == Context.MAP_VALUE) {
                throw stop("invalid YAML: a list cannot start on the line of its key (start it on the next line)");
            }
            return list(pos - lineStart, depth);
        }
        if (ch == '[' || ch == '{') {
            YamlNode flow = flow(depth);
            skipSpaces();
            if (peek(0) == ':' && isBlankOrEnd(peek(1))) {
                throw new Stop(l, c, "a mapping key must be a plain value, not " + flow.kind().description());
            }
            endOfLine();
            return flow;
        }
        refuseIndicator(false);
        int keyIndent = pos - lineStart;
        int startLine = line;
        boolean plain = ch != '\'' && ch != '"';
        String value = plain ? plain(parent, false) : quoted();
        skipSpaces();
        if (peek(0) == ':' && isBlankOrEnd(peek(1))) {
            if (context == Context.MAP_VALUE) {
                throw stop("invalid YAML: mapping values are not allowed here (quote a value that contains ': ')");
            }
            if (line != startLine) {
                throw new Stop(l, c, "invalid YAML: a mapping key must be on one line");
            }
            return map(keyIndent, depth, new YamlNode.YamlEntry(value, l, c, null));
        }
        endOfLine();
        return YamlScalars.node(value, plain, l, c);
    }

    /** A block mapping indented {@code indent} columns, whose first key is read; {@link #pos} is at its ':'. */
    private YamlNode map(int indent, int depth, YamlNode.YamlEntry first) {
        int l = first.line();
        int c = first.column();
        Map<String, YamlNode.YamlEntry> entries = new LinkedHashMap<>();
        YamlNode.YamlEntry key = first;
        while (true) {
            pos++; // the ':'
            YamlNode value = blockValue(indent, depth + 1, Context.MAP_VALUE);
            addEntry(entries, new YamlNode.YamlEntry(key.key(), key.line(), key.column(), value), problems);
            skipToContent();
            if (atEnd() || atMarker("---") || atMarker("...") || pos - lineStart < indent) {
                break;
            }
            if (pos - lineStart > indent) {
                throw stop("invalid YAML: this line is indented more than the mapping it is in");
            }
            key = key();
        }
        return new YamlNode(YamlNode.Kind.MAP, l, c, null, Collections.unmodifiableMap(entries), List.of());
    }

    /** The key of a block mapping's entry at {@link #pos}, which is left at its ':'. */
    private YamlNode.YamlEntry key() {
        int l = line;
        int c = column();
        char ch = peek(0);
        if (ch == '-' && isBlankOrEnd(peek(1))) {
            throw stop("invalid YAML: a list item where a key of the mapping above was expected");
        }
        if (ch == '[' || ch == '{') {
            throw stop("a mapping key must be a plain value, not " + (ch == '[' ? "a list" : "a mapping"));
        }
        refuseIndicator(false);
        String key = ch == '\'' || ch == '"' ? quoted() : plain(pos - lineStart, false);
        skipSpaces();
        if (line != l) {
            throw new Stop(l, c, "invalid YAML: a mapping key must be on one line");
        }
        if (peek(0) != ':' || !isBlankOrEnd(peek(1))) {
            throw new Stop(l, c, "invalid YAML: expected 'key: value' (a ':' and a space after the key)");
        }
        return new YamlNode.YamlEntry(key, l, c, null);
    }

    /** A block list whose items' '-' are at column {@code indent} + 1; {@link #pos} is at the first. */
    private YamlNode list(int indent, int depth) {
        int l = line;
        int c = column();
        List<YamlNode> items = new ArrayList<>();
        while (true) {
            pos++; // the '-'
            items.add(blockValue(indent, depth + 1, Context.LIST_ITEM));
            skipToContent();
            if (atEnd() || atMarker("---") || atMarker("...") || pos - lineStart < indent) {
                break;
            }
            if (pos - lineStart > indent) {
                throw stop("invalid YAML: this line is indented more than the list it is in");
            }
            if (peek(0) != '-' || !isBlankOrEnd(peek(1))) {
                break;
            }
        }
        return new YamlNode(YamlNode.Kind.LIST, l, c, null, Map.of(), Collections.unmodifiableList(items));
    }

    /**
     * The value after a key's ':' or a list item's '-' (at {@link #pos}) of a block indented {@code indent}: on
     * the same line, on the lines below, indented more (a mapping's list may be indented as much as its key), or
     * empty.
     */
    private YamlNode blockValue(int indent, int depth, Context context) {
        int emptyLine = line;
        int emptyColumn = column();
        skipSpaces();
        if (!atLineEnd()) {
            return node(indent, depth, context);
        }
        skipToContent();
        int at = pos - lineStart;
        boolean listAtKey = context == Context.MAP_VALUE && at == indent && peek(0) == '-' && isBlankOrEnd(peek(1));
        if (atEnd() || atMarker("---") || atMarker("...") || (at <= indent && !listAtKey)) {
            return YamlScalars.node("", true, emptyLine, emptyColumn);
        }
        if (depth > MAX_DEPTH) {
            throw stop("nesting is deeper than " + MAX_DEPTH + " levels");
        }
        return listAtKey ? list(at, depth) : node(indent, depth, Context.ROOT);
    }

    /** A flow list or mapping at {@link #pos}. */
    private YamlNode flow(int depth) {
        int l = line;
        int c = column();
        if (depth > MAX_DEPTH) {
            throw stop("nesting is deeper than " + MAX_DEPTH + " levels");
        }
        boolean isList = peek(0) == '[';
        char close = isList ? ']' : '}';
        pos++;
        List<YamlNode> items = isList ? new ArrayList<>() : List.of();
        Map<String, YamlNode.YamlEntry> entries = isList ? Map.of() : new LinkedHashMap<>();
        while (true) {
            skipFlowSpace(l, c, close);
            if (peek(0) == close) {
                pos++;
                break;
            }
            int itemLine = line;
            int itemColumn = column();
            boolean quotedKey = peek(0) == '"' || peek(0) == '\'';
            YamlNode item = flowNode(isList ? depth + 1 : depth, l, c, close); // a key is no level
            String keyText = lastFlowScalar; // a key is the text as written: {yes: 1} has the key "yes"
            skipFlowSpace(l, c, close);
            // after a quoted key the ':' may touch its value, as in JSON ({"a":"b"}): YAML 1.2 allows it
            boolean pair = peek(0) == ':' && (quotedKey || isFlowValueEnd(peek(1)));
            if (pair && line != itemLine) {
                throw stop("invalid YAML: a key and its ':' must be on one line");
            }
            if (isList && !pair) {
                items.add(item);
            } else {
                if (keyText == null) {
                    throw new Stop(itemLine, itemColumn, "a mapping key must be a plain value, not "
                            + item.kind().description());
                }
                YamlNode value;
                if (pair) {
                    int valueLine = line;
                    int valueColumn = column() + 1;
                    pos++;
                    skipFlowSpace(l, c, close);
                    value = peek(0) == ',' || peek(0) == close
                            ? YamlScalars.node("", true, valueLine, valueColumn)
                            : flowNode(depth + 1, l, c, close);
                    skipFlowSpace(l, c, close);
                } else {
                    value = YamlScalars.node("", true, line, column());
                }
                YamlNode.YamlEntry entry = new YamlNode.YamlEntry(keyText, itemLine, itemColumn, value);
                if (isList) {
                    Map<String, YamlNode.YamlEntry> single = new LinkedHashMap<>();
                    single.put(entry.key(), entry);
                    items.add(new YamlNode(YamlNode.Kind.MAP, itemLine, itemColumn, null,
                            Collections.unmodifiableMap(single), List.of()));
                } else {
                    addEntry(entries, entry, problems);
                }
            }
            if (peek(0) == ',') {
                pos++;
            } else if (peek(0) != close) {
                throw stop("invalid YAML: expected ',' or '" + close + "' in the " + (isList ? "list" : "mapping")
                        + " opened at line " + l + ", column " + c);
            }
        }
        return isList
                ? new YamlNode(YamlNode.Kind.LIST, l, c, null, Map.of(), Collections.unmodifiableList(items))
                : new YamlNode(YamlNode.Kind.MAP, l, c, null, Collections.unmodifiableMap(entries), List.of());
    }

    /** A value inside a flow collection, at {@link #pos}. */
    private YamlNode flowNode(int depth, int openLine, int openColumn, char close) {
        char ch = peek(0);
        if (ch == '[' || ch == '{') {
            YamlNode collection = flow(depth);
            lastFlowScalar = null;
            return collection;
        }
        if (ch == ',' || ch == ']' || ch == '}') {
            throw stop("invalid YAML: expected a value before '" + ch + "'");
        }
        if (depth > MAX_DEPTH) {
            throw stop("nesting is deeper than " + MAX_DEPTH + " levels");
        }
        refuseIndicator(true);
        int l = line;
        int c = column();
        boolean plain = ch != '\'' && ch != '"';
        String value = plain ? plain(-1, true) : quoted();
        lastFlowScalar = value;
        return YamlScalars.node(value, plain, l, c);
    }

    /** Skips spaces, line breaks and comments inside a flow collection; refuses the end of the text. */
    private void skipFlowSpace(int openLine, int openColumn, char close) {
        while (true) {
            char ch = peek(0);
            if (ch == ' ') {
                pos++;
            } else if (ch == '\t') {
                throw stop(tab());
            } else if (ch == '\n' || ch == '\r') {
                newline();
            } else if (ch == '#') { // where a token may start, '#' starts a comment
                skipComment();
            } else if (atEnd()) {
                throw stop("invalid YAML: the " + (close == ']' ? "list" : "mapping") + " opened at line " + openLine
                        + ", column " + openColumn + " is not closed with '" + close + "'");
            } else {
                return;
            }
        }
    }

    /** Refuses the YAML a rules file does not use, when it starts the value at {@link #pos}. */
    private void refuseIndicator(boolean flow) {
        char ch = peek(0);
        switch (ch) {
            case '&':
                throw stop("YAML anchors (&" + name(1) + ") are not supported in rules files: write the value out");
            case '*':
                throw stop("YAML aliases (*" + name(1) + ") are not supported in rules files: write the value out");
            case '!':
                throw stop("YAML tags (" + word() + ") are not supported in rules files: write the value alone"
                        + " (quote it to make it a string)");
            case '|', '>':
                if (!flow) {
                    throw stop("YAML block scalars ('" + ch + "') are not supported in rules files: write the value"
                            + " in quotes (a quoted value may span lines)");
                }
                break;
            case '?':
                if (flow || isBlankOrEnd(peek(1))) {
                    throw stop("YAML complex keys ('? ') are not supported in rules files");
                }
                return;
            case '%', '@', '`', ',', ']', '}':
                break;
            case ':':
                if (flow || isBlankOrEnd(peek(1))) {
                    throw stop("invalid YAML: a key is missing before ':'");
                }
                return;
            case '-':
                if (isBlankOrEnd(peek(1))) {
                    throw stop("invalid YAML: a list item ('- ') is not allowed here");
                }
                return;
            case '#':
                throw stop("invalid YAML: expected a value");
            case '\t':
                throw stop(tab());
            default:
                return;
        }
        throw stop("invalid YAML: a value cannot start with '" + ch + "' (quote it)");
    }

    /**
     * A plain scalar at {@link #pos}: up to ": ", " #" or the end of the line, and on over the lines below that
     * are indented more than {@code parent} columns (or any line inside a flow collection), folded as YAML
     * folds them: one line break becomes a space, each further one a line break.
     */
    private String plain(int parent, boolean flow) {
        StringBuilder out = new StringBuilder();
        int spaces = pos;
        int breaks = 0;
        while (true) {
            int start = pos;
            while (!atEnd()) {
                char ch = peek(0);
                if (isBlankOrEnd(ch) || (ch == ':' && (isBlankOrEnd(peek(1)) || (flow && isFlowValueEnd(peek(1)))))
                        || (flow && ",?[]{}".indexOf(ch) >= 0)) {
                    break;
                }
                pos++;
            }
            if (pos == start) {
                break;
            }
            if (out.length() > 0) {
                if (breaks == 0) {
                    out.append(text, spaces, start);
                } else if (breaks == 1) {
                    out.append(' ');
                } else {
                    out.append("\n".repeat(breaks - 1));
                }
            }
            out.append(text, start, pos);
            int end = pos;
            int endLine = line;
            int endLineStart = lineStart;
            spaces = pos;
            skipSpaces();
            breaks = 0;
            while (peek(0) == '\n' || peek(0) == '\r') {
                newline();
                breaks++;
                skipSpaces();
            }
            if (atEnd() || (peek(0) == '#' && pos > spaces) || (breaks > 0 && ((!flow && pos - lineStart <= parent)
                    || atMarker("---") || atMarker("...")))) {
                restore(end, endLine, endLineStart);
                break;
            }
        }
        return out.toString();
    }

    private void restore(int at, int atLine, int atLineStart) {
        pos = at;
        line = atLine;
        lineStart = atLineStart;
    }

    /** A single- or double-quoted scalar at {@link #pos}, its escapes and line folds applied. */
    private String quoted() {
        int l = line;
        int c = column();
        char quote = peek(0);
        pos++;
        StringBuilder out = new StringBuilder();
        while (true) {
            if (atEnd()) {
                throw new Stop(l, c, "invalid YAML: the quoted value is not closed with " + quote);
            }
            char ch = text.charAt(pos);
            if (ch == quote) {
                if (quote == '\'' && peek(1) == '\'') {
                    out.append('\'');
                    pos += 2;
                    continue;
                }
                pos++;
                return out.toString();
            }
            if (ch == '\\' && quote == '"') {
                if (peek(1) == '\n' || peek(1) == '\r') {
                    pos++;
                    newline();
                    fold(out, true);
                } else {
                    escape(out);
                }
            } else if (ch == ' ' || ch == '\t') {
                int spaces = pos;
                while (peek(0) == ' ' || peek(0) == '\t') {
                    pos++;
                }
                if (!isBreakOrEnd(peek(0))) {
                    out.append(text, spaces, pos);
                }
            } else if (ch == '\n' || ch == '\r') {
                newline();
                fold(out, false);
            } else {
                out.append(ch);
                pos++;
            }
        }
    }

    /** After a line break inside a quoted scalar: skips indentation and empty lines, and appends the fold. */
    private void fold(StringBuilder out, boolean escaped) {
        int breaks = 0;
        while (true) {
            while (peek(0) == ' ' || peek(0) == '\t') {
                pos++;
            }
            if (peek(0) == '\n' || peek(0) == '\r') {
                newline();
                breaks++;
            } else {
                break;
            }
        }
        if (atMarker("---") || atMarker("...")) {
            throw stop("invalid YAML: a document marker inside a quoted value");
        }
        if (breaks == 0 && !escaped) {
            out.append(' ');
        }
        for (int i = 0; i < breaks; i++) {
            out.append('\n');
        }
    }

    /** A double-quoted scalar's escape at {@link #pos} (its backslash). */
    private void escape(StringBuilder out) {
        char e = peek(1);
        char replacement = switch (e) {
            case '0' -> '\0';
            case 'a' -> '\u0007';
            case 'b' -> '\b';
            case 't', '\t' -> '\t';
            case 'n' -> '\n';
            case 'v' -> '\u000B';
            case 'f' -> '\f';
            case 'r' -> '\r';
            case 'e' -> '\u001B';
            case ' ' -> ' ';
            case '"' -> '"';
            case '\\' -> '\\';
            case 'N' -> '\u0085';
            case '_' -> '\u00A0';
            case 'L' -> '\u2028';
            case 'P' -> '\u2029';
            default -> '\uFFFF';
        };
        if (replacement != '\uFFFF') {
            out.append(replacement);
            pos += 2;
            return;
        }
        int digits = e == 'x' ? 2 : e == 'u' ? 4 : e == 'U' ? 8 : 0;
        if (digits == 0) {
            throw stop("invalid YAML: unknown escape '\\" + e + "' in a double-quoted value");
        }
        int code = 0;
        for (int i = 0; i < digits; i++) {
            int digit = Character.digit(peek(2 + i), 16);
            if (digit < 0 || peek(2 + i) > 0x7F) {
                throw stop("invalid YAML: '\\" + e + "' needs " + digits + " hexadecimal digits");
            }
            code = code * 16 + digit;
        }
        if (code < 0 || code > Character.MAX_CODE_POINT) {
            throw stop("invalid YAML: '\\" + e + "' names no Unicode character");
        }
        out.appendCodePoint(code);
        pos += 2 + digits;
    }

    /** After a value: only spaces and a comment may follow on its line. */
    private void endOfLine() {
        skipSpaces();
        if (!atLineEnd()) {
            throw stop(peek(0) == ':' ? "invalid YAML: mapping values are not allowed here"
                    : "invalid YAML: unexpected text after the value");
        }
    }

    /** Skips spaces; a tab is refused. */
    private void skipSpaces() {
        while (peek(0) == ' ') {
            pos++;
        }
        if (peek(0) == '\t') {
            throw stop(tab());
        }
    }

    /**
     * True at the end of the line, of the text, or at a comment (after {@link #skipSpaces}): where a token may
     * start, a '#' starts a comment even without a space before it ({@code [a]#c}), as in YAML 1.1 parsers.
     */
    private boolean atLineEnd() {
        char ch = peek(0);
        return atEnd() || ch == '\n' || ch == '\r' || ch == '#';
    }

    /** Skips spaces, comments and line breaks up to the next content. */
    private void skipToContent() {
        while (!atEnd()) {
            skipSpaces();
            if (peek(0) == '#') {
                skipComment();
            }
            if (peek(0) == '\n' || peek(0) == '\r') {
                newline();
            } else {
                return;
            }
        }
    }

    private void skipComment() {
        while (!atEnd() && peek(0) != '\n' && peek(0) != '\r') {
            pos++;
        }
    }

    private void newline() {
        if (peek(0) == '\r' && peek(1) == '\n') {
            pos++;
        }
        pos++;
        line++;
        lineStart = pos;
    }

    /** True at a document marker: {@code marker} at the start of a line, followed by a blank or the end. */
    private boolean atMarker(String marker) {
        return pos == lineStart && text.startsWith(marker, pos) && isBlankOrEnd(peek(3));
    }

    /** The anchor's or alias's name after the indicator, for the message. */
    private String name(int from) {
        int end = pos + from;
        while (end < text.length() && !isBlankOrEnd(text.charAt(end)) && ",[]{}".indexOf(text.charAt(end)) < 0) {
            end++;
        }
        return Fields.shorten(text.substring(pos + from, end));
    }

    /** The word at {@link #pos}, up to a blank, for a message. */
    private String word() {
        int end = pos;
        while (end < text.length() && !isBlankOrEnd(text.charAt(end))) {
            end++;
        }
        return Fields.shorten(text.substring(pos, end));
    }

    private static String tab() {
        return "invalid YAML: a tab outside a quoted value or a comment (YAML indents and separates with spaces)";
    }

    private Stop stop(String message) {
        return new Stop(line, column(), message);
    }

    /** The 1-based column of {@link #pos}, in code points. */
    private int column() {
        return text.codePointCount(lineStart, Math.min(pos, text.length())) + 1;
    }

    private boolean atEnd() {
        return pos >= text.length();
    }

    /** The character {@code ahead} of {@link #pos}, or NUL past the end (a NUL in the text is refused earlier). */
    private char peek(int ahead) {
        int at = pos + ahead;
        return at < text.length() ? text.charAt(at) : '\0';
    }

    private static boolean isBlank(char c) {
        return c == ' ' || c == '\t';
    }

    private static boolean isBreakOrEnd(char c) {
        return c == '\n' || c == '\r' || c == '\0';
    }

    private static boolean isBlankOrEnd(char c) {
        return isBlank(c) || isBreakOrEnd(c);
    }

    /** True if a ':' followed by {@code next} ends a key inside a flow collection. */
    private static boolean isFlowValueEnd(char next) {
        return isBlankOrEnd(next) || ",[]{}".indexOf(next) >= 0;
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

    static String firstLine(String message) {
        if (message == null) {
            return "syntax error";
        }
        int newline = message.indexOf('\n');
        return (newline < 0 ? message : message.substring(0, newline)).trim();
    }
}
