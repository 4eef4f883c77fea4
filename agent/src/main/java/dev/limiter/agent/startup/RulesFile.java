package dev.limiter.agent.startup;

import dev.limiter.rules.yaml.YamlTreeReader;
import java.io.File;
import java.io.FileInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

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

    private final Path path;
    private final byte[] bytes;
    private final boolean mayNameClasses;

    private RulesFile(Path path, byte[] bytes) {
        this.path = path;
        this.bytes = bytes;
        this.mayNameClasses = bytes == null || mayNameClasses(bytes);
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
     * False only if a rules file with this content cannot have a {@code method:} or {@code jaxrs:} rule: the
     * word {@code jaxrs} appears nowhere, and {@code method} never as a key (followed, after an optional quote
     * and blanks, by a colon or the end of the line; {@code methods: [GET]} of an HTTP rule is not one). Errs on
     * the side of true: any backslash (a YAML escape could spell a key) or NUL byte (a UTF-16 file) counts too.
     */
    static boolean mayNameClasses(byte[] text) {
        for (byte b : text) {
            if (b == '\\' || b == 0) {
                return true;
            }
        }
        String ascii = new String(text, StandardCharsets.ISO_8859_1);
        if (ascii.contains("jaxrs")) {
            return true;
        }
        for (int at = ascii.indexOf("method"); at >= 0; at = ascii.indexOf("method", at + 1)) {
            int next = at + "method".length();
            if (next < ascii.length() && (ascii.charAt(next) == '"' || ascii.charAt(next) == '\'')) {
                next++;
            }
            while (next < ascii.length() && (ascii.charAt(next) == ' ' || ascii.charAt(next) == '\t')) {
                next++;
            }
            // a colon makes it a key; so can one on a later line (YAML's explicit "? method")
            if (next == ascii.length() || ascii.charAt(next) == ':' || ascii.charAt(next) == '\n'
                    || ascii.charAt(next) == '\r') {
                return true;
            }
        }
        return false;
    }
}
