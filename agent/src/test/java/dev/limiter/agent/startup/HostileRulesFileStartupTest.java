package dev.limiter.agent.startup;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assumptions.assumeFalse;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.limiter.core.clock.SystemClock;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.reload.RuleSetHolder;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The start-up path over hostile rules files, as premain runs it ({@code Startup}'s READ and PARSE phases): the
 * file is read once ({@link RulesFile}), the holder opens those bytes (or, with none, the path, to say why) and
 * the banner names the file and the error; the application then runs unprotected, as with any invalid file.
 * READ runs on the application's main thread: it must not block on a named pipe nor read a 50 MB file, so every
 * case runs under a time bound that fails instead of hanging the build.
 */
class HostileRulesFileStartupTest {

    private static final Duration BOUND = Duration.ofSeconds(5);
    private static final String GOOD = "version: 1\nrules:\n  - id: a\n    match: { http: { path: /a } }\n"
            + "    limit: 2\n    window: 1h\n";

    @TempDir
    Path dir;

    @FunctionalInterface
    interface Writer {
        void write(Path file) throws Exception;
    }

    static Stream<Arguments> hostileFiles() {
        return Stream.of(
                Arguments.of("alias bomb", (Writer) HostileRulesFileStartupTest::aliasBomb,
                        "rules.yml:2:4: YAML anchors (&a) are not supported in rules files: write the value out"),
                Arguments.of("50 MB", (Writer) file -> {
                    try (RandomAccessFile sparse = new RandomAccessFile(file.toFile(), "rw")) {
                        sparse.setLength(50L << 20);
                    }
                }, "rules.yml:1:1: the file is larger than 1048576 bytes (1 MiB), the most a rules file may be"
                        + " (it has 52428800)"),
                Arguments.of("[[[...]]] 100,000 deep", (Writer) file -> Files.writeString(file,
                        "version: 1\nrules: " + ("[".repeat(1_000) + "\n ").repeat(100)),
                        "rules.yml:2:40: nesting is deeper than 32 levels"),
                Arguments.of("a directory", (Writer) Files::createDirectory,
                        "rules.yml:1:1: the rules file is a directory, not a file"),
                Arguments.of("a named pipe", (Writer) HostileRulesFileStartupTest::fifo,
                        "rules.yml:1:1: the rules file is not a regular file (a named pipe, socket or device): not"
                                + " read, since reading it could block or never end"),
                Arguments.of("mode 000", (Writer) file -> {
                    Files.writeString(file, GOOD);
                    Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("---------"));
                    assumeFalse(Files.isReadable(file), "this process reads a mode-000 file anyway (root)");
                }, "rules.yml:1:1: cannot read the rules file: permission denied"),
                Arguments.of("a symlink loop", (Writer) file -> {
                    Files.createSymbolicLink(file.resolveSibling("loop.yml"), file.getFileName());
                    Files.createSymbolicLink(file, Path.of("loop.yml"));
                }, "rules.yml:1:1: cannot read the rules file: a loop of symbolic links"),
                Arguments.of("a dangling symlink", (Writer) file -> Files.createSymbolicLink(file, Path.of("gone.yml")),
                        "rules.yml:1:1: the rules file is a symbolic link to a file that does not exist (gone.yml)"),
                Arguments.of("invalid UTF-8", (Writer) file -> Files.write(file,
                        "version: 1\nrules: []\n# café\n".getBytes(StandardCharsets.ISO_8859_1)),
                        "rules.yml:3:6: the file is not valid UTF-8 (byte 0xE9): rules files are UTF-8"),
                Arguments.of("a NUL byte", (Writer) file -> Files.writeString(file, "version: 1\nrules: [\0]\n"),
                        "rules.yml:2:9: the file contains the character U+0000, which YAML does not allow (a binary"
                                + " or wrongly encoded file?)"));
    }

    private static void aliasBomb(Path file) throws IOException {
        StringBuilder bomb = new StringBuilder("version: 1\na: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char c = 'b'; c <= 'j'; c++) {
            bomb.append(c).append(": &").append(c).append(" [*").append((char) (c - 1));
            bomb.append((", *" + (char) (c - 1)).repeat(8)).append("]\n");
        }
        Files.writeString(file, bomb.append("rules: *j\n"));
    }

    private static void fifo(Path file) throws Exception {
        Process mkfifo;
        try {
            mkfifo = new ProcessBuilder("mkfifo", file.toString()).inheritIO().start();
        } catch (IOException e) {
            assumeTrue(false, "no mkfifo on this system: " + e);
            return;
        }
        assumeTrue(mkfifo.waitFor(30, TimeUnit.SECONDS) && mkfifo.exitValue() == 0, "mkfifo failed");
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("hostileFiles")
    void theAgentStartsUnprotectedAndItsBannerNamesTheFileAndTheError(String name, Writer writer, String error)
            throws Exception {
        Path file = dir.resolve("rules.yml");
        writer.write(file);

        String banner = assertTimeoutPreemptively(BOUND, () -> {
            long start = System.nanoTime();
            RulesFile read = RulesFile.read(file);
            RuleSetHolder holder = RuleSetHolder.open(read.path(), read.bytes(), SystemClock.INSTANCE,
                    LimiterFactory.LOCAL);
            String text = StartupBanner.of("test", holder);
            System.out.printf("hostile rules file at start-up: %-24s %5d ms%n", name,
                    (System.nanoTime() - start) / 1_000_000);
            assertThat(holder.current().rules()).isEmpty();
            assertThat(read.bytes()).as("a file that cannot be used leaves nothing for the parse to reuse, or"
                    + " only what a rules file may hold").satisfiesAnyOf(
                            bytes -> assertThat(bytes).isNull(),
                            bytes -> assertThat(bytes.length).isLessThanOrEqualTo(1 << 20));
            return text;
        });

        assertThat(banner).isEqualTo("limiter test started: rules " + file
                + ", invalid rules (running unprotected until the file is fixed)\n" + error);
    }

    @Test
    void aSymlinkToARegularFileIsReadAtStartUpLikeTheFile() throws Exception {
        Path data = Files.createDirectory(dir.resolve("..2026_01_01"));
        Files.writeString(data.resolve("rules.yml"), GOOD);
        Files.createSymbolicLink(dir.resolve("..data"), data.getFileName());
        Path file = Files.createSymbolicLink(dir.resolve("rules.yml"), Path.of("..data", "rules.yml"));

        RulesFile read = RulesFile.read(file);
        assertThat(read.bytes()).isEqualTo(GOOD.getBytes(StandardCharsets.UTF_8));
        assertThat(read.mayNameClasses()).as("the parse may run in the background").isFalse();
        RuleSetHolder holder = RuleSetHolder.open(read.path(), read.bytes(), SystemClock.INSTANCE,
                LimiterFactory.LOCAL);
        assertThat(StartupBanner.of("test", holder)).isEqualTo("limiter test started: rules " + file + ", 1 rule");
    }
}
