package dev.limiter.rules.compile;

import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.concurrent.TimeUnit;

/**
 * Rules files written to hurt the process that reads them, each with the one error a person sees for it. Each
 * {@link #replace} puts its file where the rules file is (replacing what was there), so the same catalogue serves
 * a first load and a reload over good rules. The parser's bounds are {@code YamlTreeReader}'s; the file's are
 * {@code RulesFileBytes}'.
 */
public enum HostileRulesFile {

    /** "Billion laughs": nine levels of nine aliases each; refused at the first anchor, never expanded. */
    ALIAS_BOMB("rules.yml:2:4: YAML anchors (&a) are not supported in rules files: write the value out",
            Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            StringBuilder bomb = new StringBuilder("version: 1\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
            for (char c = 'b'; c <= 'j'; c++) {
                bomb.append(c).append(": &").append(c).append(" [");
                for (int i = 0; i < 9; i++) {
                    bomb.append(i == 0 ? "*" : ", *").append((char) (c - 1));
                }
                bomb.append("]\n");
            }
            bomb.append("rules: *j\n");
            Files.writeString(file, bomb);
        }
    },
    /** 50 MB (sparse: the size is what matters); refused by its size, before a byte of it is read. */
    FIFTY_MEGABYTES("rules.yml:1:1: the file is larger than 1048576 bytes (1 MiB), the most a rules file may be"
            + " (it has 52428800)", Budget.NOT_READ) {
        @Override
        void write(Path file) throws IOException {
            try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
                sparse.setLength(50L * 1024 * 1024);
            }
        }
    },
    /** One byte over the bound, in real content: refused by size too. */
    ONE_BYTE_TOO_LARGE("rules.yml:1:1: the file is larger than 1048576 bytes (1 MiB), the most a rules file may"
            + " be (it has 1048577)", Budget.NOT_READ) {
        @Override
        void write(Path file) throws IOException {
            Files.writeString(file, padded(GOOD, (1 << 20) + 1));
        }
    },
    /** {@code [[[[...]]]]} 100,000 deep, in lines of 1,000 (a longer line is refused before the parse). */
    DEEP_FLOW_LISTS("rules.yml:2:40: nesting is deeper than 32 levels", Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            Files.writeString(file, "version: 1\nrules: " + lines("[", 100_000, 1_000) + lines("]", 100_000, 1_000));
        }
    },
    /** {@code {a: {a: ...}}} 100,000 deep, in lines of 250 levels. */
    DEEP_FLOW_MAPS("rules.yml:2:136: nesting is deeper than 32 levels", Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            Files.writeString(file, "version: 1\nrules: " + lines("{a: ", 100_000, 250) + "1"
                    + lines("}", 100_000, 1_000));
        }
    },
    /** {@code - - - ... x}: block lists 8,000 deep on one line (as deep as the line bound allows). */
    DEEP_BLOCK_LISTS("rules.yml:3:65: nesting is deeper than 32 levels", Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            Files.writeString(file, "version: 1\nrules:\n" + "- ".repeat(8_000) + "x\n");
        }
    },
    /** Block mappings indented 900 deep (as deep as fits in the size bound). */
    DEEP_BLOCK_MAPS("rules.yml:36:67: nesting is deeper than 32 levels", Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            StringBuilder text = new StringBuilder("version: 1\nrules:\n");
            for (int i = 0; i < 900; i++) {
                text.append("  ".repeat(i)).append("a:\n");
            }
            Files.writeString(file, text);
        }
    },
    DIRECTORY("rules.yml:1:1: the rules file is a directory, not a file", Budget.NOT_READ) {
        @Override
        void write(Path file) throws IOException {
            Files.createDirectory(file);
        }
    },
    /** A FIFO with no writer: opening it would block for ever. */
    NAMED_PIPE("rules.yml:1:1: the rules file is not a regular file (a named pipe, socket or device): not read,"
            + " since reading it could block or never end", Budget.NOT_READ) {
        @Override
        void write(Path file) throws Exception {
            Process mkfifo;
            try {
                mkfifo = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
            } catch (IOException e) {
                assumeTrue(false, "no mkfifo on this system: " + e);
                return;
            }
            assumeTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo failed");
        }
    },
    /**
     * Mode 000. Skipped where the process can read it anyway: root (as in many containers) ignores file
     * permissions, so there is nothing to refuse.
     */
    UNREADABLE("rules.yml:1:1: cannot read the rules file: permission denied", Budget.NOT_READ) {
        @Override
        void write(Path file) throws IOException {
            Files.writeString(file, GOOD);
            Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
            assumeFalse(Files.isReadable(file), "this process reads a mode-000 file anyway (it runs as root)");
        }
    },
    /** rules.yml -> loop.yml -> rules.yml. */
    SYMLINK_LOOP("rules.yml:1:1: cannot read the rules file: a loop of symbolic links", Budget.NOT_READ) {
        @Override
        void write(Path file) throws IOException {
            Path other = file.resolveSibling("loop.yml");
            Files.deleteIfExists(other);
            Files.createSymbolicLink(other, file.getFileName());
            Files.createSymbolicLink(file, other.getFileName());
        }
    },
    DANGLING_SYMLINK("rules.yml:1:1: the rules file is a symbolic link to a file that does not exist (gone.yml)",
            Budget.NOT_READ) {
        @Override
        void write(Path file) throws IOException {
            Files.createSymbolicLink(file, Path.of("gone.yml"));
        }
    },
    DELETED("rules.yml:1:1: the rules file does not exist", Budget.NOT_READ) {
        @Override
        void write(Path file) {
            // replace() has deleted it
        }
    },
    /** Latin-1 where UTF-8 is expected: the é of "café" in a comment. */
    INVALID_UTF8("rules.yml:3:6: the file is not valid UTF-8 (byte 0xE9): rules files are UTF-8", Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            Files.write(file, "version: 1\nrules: []\n# café\n".getBytes(StandardCharsets.ISO_8859_1));
        }
    },
    /** A UTF-16 file (with its byte-order mark), as some Windows editors save. */
    UTF16("rules.yml:1:1: the file is not valid UTF-8 (byte 0xFE): rules files are UTF-8", Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            Files.write(file, GOOD.getBytes(StandardCharsets.UTF_16));
        }
    },
    NUL_BYTE("rules.yml:2:9: the file contains the character U+0000, which YAML does not allow (a binary or"
            + " wrongly encoded file?)", Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            Files.writeString(file, "version: 1\nrules: [\0]\n");
        }
    },
    /**
     * A 1,000,000-character rule id on one line: refused by the line bound before the parser sees it (a line's
     * cost to the parser grows with its square: 2 GB allocated for this one without the bound).
     */
    HUGE_SCALAR("rules.yml:3:16385: the line is longer than 16384 characters, the most a rules file allows (break"
            + " it up: YAML lists and strings may span lines)", Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            Files.writeString(file, "version: 1\nrules:\n  - id: " + "x".repeat(1_000_000)
                    + "\n    match: { http: { path: /a } }\n    limit: 1\n    window: 1s\n");
        }
    },
    /**
     * A 1,000,000-character double-quoted id in lines of the longest length allowed: parsed (the first line
     * bounds the parser's cost), then refused by the id check, its message cut to a line's length.
     */
    HUGE_MULTILINE_SCALAR("rules.yml:3:9: .{1,500}", Budget.PARSED) {
        @Override
        void write(Path file) throws IOException {
            StringBuilder text = new StringBuilder("version: 1\nrules:\n  - id: \"");
            for (int i = 0; i < 60; i++) {
                text.append("    ").append("x".repeat(16_000)).append('\n');
            }
            Files.writeString(file, text.append("    \"\n    match: { http: { path: /a } }\n    limit: 1\n"
                    + "    window: 1s\n"));
        }
    };

    /** Valid rules, one rule {@code a} with a limit of 2 per hour (what a good file looks like next to these). */
    public static final String GOOD = "version: 1\nrules:\n  - id: a\n    match: { http: { path: /a } }\n"
            + "    limit: 2\n    window: 1h\n";

    /** The bytes a load of this file may allocate: a bound, generous against noise, not a measurement. */
    enum Budget {
        /** Refused from the file's attributes or at open: nothing of its content is read. */
        NOT_READ(1L << 20),
        /** Read and parsed up to its first problem: at most 1 MiB of text. */
        PARSED(64L << 20);

        final long maxAllocatedBytes;

        Budget(long maxAllocatedBytes) {
            this.maxAllocatedBytes = maxAllocatedBytes;
        }
    }

    /** The first error: exact, or a regular expression for HUGE_MULTILINE_SCALAR (worded by the id check). */
    public final String expected;
    public final Budget budget;

    HostileRulesFile(String expected, Budget budget) {
        this.expected = expected;
        this.budget = budget;
    }

    public long maxAllocatedBytes() {
        return budget.maxAllocatedBytes;
    }

    /** True if {@link #expected} is a pattern rather than the exact text. */
    public boolean expectedIsPattern() {
        return this == HUGE_MULTILINE_SCALAR;
    }

    /**
     * Puts this file at {@code file}, replacing the regular file or nothing that is there; aborts the test
     * (skips it) where the system cannot make it.
     */
    public void replace(Path file) throws Exception {
        Files.deleteIfExists(file);
        write(file);
    }

    abstract void write(Path file) throws Exception;

    /** {@code text} with comment lines (of 1,000 bytes at most) that bring it to exactly {@code size} bytes. */
    static String padded(String text, int size) {
        StringBuilder padded = new StringBuilder(size).append(text);
        while (padded.length() < size) {
            int line = Math.min(1_000, size - padded.length());
            padded.append("#").append("x".repeat(Math.max(0, line - 2))).append(line > 1 ? "\n" : "");
        }
        return padded.toString();
    }

    /** {@code token} {@code count} times, a line break after every {@code perLine}, each line indented. */
    private static String lines(String token, int count, int perLine) {
        StringBuilder text = new StringBuilder(count * token.length() + count / perLine * 2);
        for (int i = 0; i < count; i++) {
            text.append(token);
            if ((i + 1) % perLine == 0) {
                text.append("\n ");
            }
        }
        return text.toString();
    }
}
