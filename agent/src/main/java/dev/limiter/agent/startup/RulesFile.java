package dev.limiter.agent.startup;

import dev.limiter.rules.match.NameGlob;
import dev.limiter.rules.yaml.YamlTreeReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.LinkedHashSet;
import java.util.Set;

/**
 * The rules file as read once at start-up: its bytes decide whether the transformer must remember the classes it
 * passes over until the rules are parsed ({@link #mayNameClasses()}), and the same bytes are what the parse reads.
 *
 * <p>Read through a {@link FileInputStream}, not {@code Files}: its classes are loaded already (System.in), the
 * NIO channel's ~20 would load on the application's main thread. A file that cannot be read, or is larger than a
 * rules file may be, has no bytes (and is read no further); the parse then reads the path itself and reports
 * why, with the file's name. Only a regular file is opened ({@link File#isFile()}, through symlinks): opening a
 * named pipe blocks until something writes to it, and this runs on the application's main thread. (A file
 * swapped for a pipe between that check and the open can still block; see {@code RulesFileBytes}.)
 */
final class RulesFile {

    private static final String[] NO_GLOBS = new String[0];

    private final Path path;
    private final byte[] bytes;
    private final boolean mayNameClasses;
    private final boolean mayHaveMethodRules;
    private final String[] classGlobs;

    private RulesFile(Path path, byte[] bytes) {
        this.path = path;
        this.bytes = bytes;
        this.mayNameClasses = bytes == null || mayNameClasses(bytes);
        this.mayHaveMethodRules = bytes == null || mayHaveMethodRules(bytes);
        this.classGlobs = mayNameClasses ? classGlobs(bytes) : NO_GLOBS;
    }

    static RulesFile read(Path path) {
        byte[] bytes;
        try {
            File file = path.toFile();
            bytes = file.isFile() && file.length() <= YamlTreeReader.MAX_FILE_BYTES ? read(file) : null;
        } catch (IOException | RuntimeException e) {
            bytes = null;
        }
        return new RulesFile(path, bytes == null || bytes.length > YamlTreeReader.MAX_FILE_BYTES ? null : bytes);
    }

    /** At most one byte more than a rules file may have, so a file that grew since its length was read is seen. */
    private static byte[] read(File file) throws IOException {
        try (InputStream in = new FileInputStream(file)) {
            return in.readNBytes(YamlTreeReader.MAX_FILE_BYTES + 1);
        }
    }

    Path path() {
        return path;
    }

    /** The content read at start-up, or null if the file could not be read. */
    byte[] bytes() {
        return bytes;
    }

    /**
     * True unless the file is known to have no {@code method:} or {@code jaxrs:} rule. The parse runs on a
     * background thread either way (servlets, filters and mappers need no rules to be woven); if the rules may name
     * classes, the transformer remembers the classes it passes over until they are known, to weave those they
     * name then, and a late attach parses before installing the transformer.
     */
    boolean mayNameClasses() {
        return mayNameClasses;
    }

    /**
     * False only if the file cannot have a {@code method:} rule ({@link #mayHaveMethodRules(byte[])}): such a rule
     * may name any class, so weaving may come with no other sign (a {@code jaxrs:} rule's classes are in a loader
     * that sees the JAX-RS API, which the transformer notices).
     */
    boolean mayHaveMethodRules() {
        return mayHaveMethodRules;
    }

    /**
     * Every glob the file's {@code class:} keys may hold (a superset, found without parsing the YAML), or null if
     * any class may be named: a class none of them matches is named by no {@code method:} or {@code jaxrs:} rule
     * of this file. While the rules are parsed, a class that one of them matches waits for the rules before it is
     * woven, so the methods the rules name are limited from their first call. Empty for a file without such rules
     * or that could not be read (nothing can be known to wait for: if it appears, it is woven as it loads or
     * re-woven after the parse).
     */
    String[] classGlobs() {
        return classGlobs;
    }

    /**
     * False only if a rules file with this content cannot have a {@code method:} or {@code jaxrs:} rule: the
     * word {@code jaxrs} appears nowhere, and {@code method} never as a key (followed, after an optional quote
     * and blanks, by a colon or the end of the line; {@code methods: [GET]} of an HTTP rule is not one). Errs on
     * the side of true: any backslash (a YAML escape could spell a key) or NUL byte (a UTF-16 file) counts too.
     */
    static boolean mayNameClasses(byte[] text) {
        if (mayHaveEscapes(text)) {
            return true;
        }
        String ascii = ascii(text);
        return ascii.contains("jaxrs") || hasMethodKey(ascii, false);
    }

    /**
     * False only if no {@code method} key of {@code text} can hold a mapping: a {@code method:} rule's match is
     * one, the method name of a {@code jaxrs:} or {@code grpc:} match ({@code method: byIp}) is a scalar. Errs on
     * the side of true as {@link #mayNameClasses(byte[])} does.
     */
    static boolean mayHaveMethodRules(byte[] text) {
        return mayHaveEscapes(text) || hasMethodKey(ascii(text), true);
    }

    /** A backslash (a YAML escape could spell a key) or a NUL byte (a UTF-16 file): no textual test holds. */
    private static boolean mayHaveEscapes(byte[] text) {
        for (byte b : text) {
            if (b == '\\' || b == 0) {
                return true;
            }
        }
        return false;
    }

    private static String ascii(byte[] text) {
        return new String(text, StandardCharsets.ISO_8859_1);
    }

    /**
     * True if {@code method} is a key of {@code ascii} (followed, after an optional quote and blanks, by a colon
     * or the end of the line); with {@code mappingValued}, only one whose value is not a scalar on the same line.
     */
    private static boolean hasMethodKey(String ascii, boolean mappingValued) {
        for (int at = ascii.indexOf("method"); at >= 0; at = ascii.indexOf("method", at + 1)) {
            int next = skipBlanks(ascii, at + "method".length(), true);
            // a colon makes it a key; so can one on a later line (YAML's explicit "? method")
            if (next == ascii.length() || ascii.charAt(next) == '\n' || ascii.charAt(next) == '\r') {
                return true;
            }
            if (ascii.charAt(next) != ':') {
                continue;
            }
            if (!mappingValued) {
                return true;
            }
            int value = skipBlanks(ascii, next + 1, false);
            // a flow or block mapping, or what could hide one (an anchor, an alias, a tag, a comment)
            if (value == ascii.length() || "\r\n{&*!#".indexOf(ascii.charAt(value)) >= 0) {
                return true;
            }
        }
        return false;
    }

    /** The index after the blanks from {@code at} (and, with {@code quote}, one closing quote before them). */
    private static int skipBlanks(String ascii, int at, boolean quote) {
        int next = at;
        if (quote && next < ascii.length() && (ascii.charAt(next) == '"' || ascii.charAt(next) == '\'')) {
            next++;
        }
        while (next < ascii.length() && (ascii.charAt(next) == ' ' || ascii.charAt(next) == '\t')) {
            next++;
        }
        return next;
    }

    /**
     * The class globs {@code text} may spell ({@link #classGlobs()}): each maximal run of the characters a
     * {@link NameGlob} may hold (Java name characters, {@code .}, {@code *}, {@code ?}) that is a valid glob and
     * could be a whole YAML scalar. A valid class glob is one scalar made only of those characters: plain, quoted
     * (no escape, else a backslash appears) or a block scalar's line (a line break or fold makes it invalid), so
     * it is one such run, and the characters around it are ones that can end a scalar. Left out, because they
     * cannot be a class glob: a run next to another character (it is part of a longer scalar: {@code /api/**},
     * {@code on-limit}, {@code &anchor}), a run followed by a colon, quoted or not (a key), and the value of a
     * key other than {@code class} written on the same line ({@code method: 'send*'}, {@code id: mailer}); a
     * value behind an anchor or a tag, or on the next line, is kept. Words of comments and messages are kept:
     * they can only match a class of the unnamed package with that very name. A backslash (a YAML escape could
     * spell any name) or a NUL byte (UTF-16 or UTF-32, which the parse decodes otherwise) makes every class a
     * candidate: null.
     */
    static String[] classGlobs(byte[] text) {
        if (text == null) {
            return NO_GLOBS;
        }
        for (byte b : text) {
            if (b == '\\' || b == 0) {
                return null;
            }
        }
        // malformed UTF-8 decodes to U+FFFD here, a separator; the parse refuses such a file (no rules at all)
        String yaml = new String(text, StandardCharsets.UTF_8);
        Set<String> globs = new LinkedHashSet<>();
        int length = yaml.length();
        int at = 0;
        while (at < length) {
            if (!globCharacter(yaml.charAt(at))) {
                at++;
                continue;
            }
            int start = at;
            boolean word = true; // Java name characters only: a valid glob that matches one name
            while (at < length && globCharacter(yaml.charAt(at))) {
                char c = yaml.charAt(at++);
                word &= c != '.' && c != '*' && c != '?';
            }
            char before = start == 0 ? ' ' : yaml.charAt(start - 1);
            char after = at == length ? ' ' : yaml.charAt(at);
            if (startsScalar(before) && endsScalar(after) && !key(yaml, at) && !valueOfAnotherKey(yaml, start)) {
                String run = yaml.substring(start, at);
                if (word || NameGlob.problem(run) == null) {
                    globs.add(run);
                }
            }
        }
        return globs.toArray(NO_GLOBS);
    }

    /** The characters {@link NameGlob#problem} allows. */
    private static boolean globCharacter(char c) {
        return c == '.' || c == '*' || c == '?' || Character.isJavaIdentifierPart(c);
    }

    /** A character that can stand just before a scalar's first character (or its opening quote's content). */
    private static boolean startsScalar(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\'' || c == '"' || c == ',' || c == '['
                || c == '{' || c == ':';
    }

    /** A character that can stand just after a value scalar's last character (not a colon: that makes a key). */
    private static boolean endsScalar(char c) {
        return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\'' || c == '"' || c == ',' || c == ']'
                || c == '}';
    }

    /** True if the run ending at {@code end} is a quoted key: a quote, blanks, a colon follow. */
    private static boolean key(String yaml, int end) {
        if (end == yaml.length() || (yaml.charAt(end) != '\'' && yaml.charAt(end) != '"')) {
            return false;
        }
        int at = end + 1;
        while (at < yaml.length() && (yaml.charAt(at) == ' ' || yaml.charAt(at) == '\t')) {
            at++;
        }
        return at < yaml.length() && yaml.charAt(at) == ':';
    }

    /**
     * True if the run at {@code start} is, on its line, directly the value of a key other than {@code class}:
     * {@code KEY:} (the key plain or quoted), blanks, an optional quote, then the run. Such a scalar is that key's
     * value and nothing else (an anchor would stand between the colon and the run).
     */
    private static boolean valueOfAnotherKey(String yaml, int start) {
        int at = start - 1;
        if (at >= 0 && (yaml.charAt(at) == '\'' || yaml.charAt(at) == '"')) {
            at--;
        }
        while (at >= 0 && (yaml.charAt(at) == ' ' || yaml.charAt(at) == '\t')) {
            at--;
        }
        if (at < 0 || yaml.charAt(at) != ':') {
            return false;
        }
        at--;
        while (at >= 0 && (yaml.charAt(at) == ' ' || yaml.charAt(at) == '\t')) {
            at--;
        }
        char quote = at >= 0 && (yaml.charAt(at) == '\'' || yaml.charAt(at) == '"') ? yaml.charAt(at) : 0;
        if (quote != 0) {
            at--;
        }
        int keyEnd = at + 1;
        while (at >= 0 && keyCharacter(yaml.charAt(at))) {
            at--;
        }
        int keyStart = at + 1;
        if (keyStart == keyEnd) {
            return false;
        }
        if (quote != 0) {
            if (at < 0 || yaml.charAt(at) != quote) {
                return false;
            }
            at--;
        }
        if (at >= 0 && !(yaml.charAt(at) == ' ' || yaml.charAt(at) == '\t' || yaml.charAt(at) == '\n'
                || yaml.charAt(at) == '\r' || yaml.charAt(at) == '{' || yaml.charAt(at) == ',')) {
            return false;
        }
        return !yaml.substring(keyStart, keyEnd).equals("class");
    }

    private static boolean keyCharacter(char c) {
        return c == '_' || c == '-' || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9');
    }
}
