package dev.limiter.it.harness;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * A rules file in its own temporary directory, rewritten by reload tests. Writes go to a sibling temp file
 * renamed over the target (as most editors and ConfigMap updates do), so the agent's watcher never reads half a
 * file. {@link #nextVersion()} numbers the rewrites, for the marker rule a test awaits to know a version is live.
 */
public final class RulesFile {

    private final Path file;
    private int version;

    private RulesFile(Path file) {
        this.file = file;
    }

    /** A new, not yet written, {@code <dir>/<fileName>} in a fresh temporary directory. */
    public static RulesFile create(String fileName) {
        try {
            Path dir = Files.createTempDirectory("limiter-it-rules");
            return new RulesFile(dir.resolve(fileName));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public Path path() {
        return file;
    }

    public synchronized int nextVersion() {
        return ++version;
    }

    public synchronized void write(String yaml) {
        try {
            Path temp = Files.createTempFile(file.getParent(), ".rules", ".tmp");
            Files.writeString(temp, yaml, StandardCharsets.UTF_8);
            Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Deletes the file and its directory (best effort: a JVM still watching it must not fail the test). */
    public void delete() {
        try {
            Files.deleteIfExists(file);
            Files.deleteIfExists(file.getParent());
        } catch (IOException ignored) {
            // the temp directory is left behind; harmless
        }
    }
}
