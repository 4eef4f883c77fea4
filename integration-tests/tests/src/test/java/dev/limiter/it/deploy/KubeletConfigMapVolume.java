package dev.limiter.it.deploy;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Comparator;
import java.util.Map;
import java.util.stream.Stream;

/**
 * A ConfigMap volume laid out and updated the way the kubelet does it (its {@code AtomicWriter}): each version of
 * the ConfigMap's keys in a directory of its own named by the time of the write ({@code ..2026_12_04_10_00_00.123}),
 * a symlink {@code ..data} to the current one, and for each key a symlink {@code key -> ..data/key} that the
 * container reads. An update writes the new version beside the old one, points a new symlink {@code ..data_tmp} at
 * it, renames that over {@code ..data} (one {@code rename(2)}: readers see the old or the new version, never a
 * mix), then removes the old directory. The key's own symlink never changes.
 */
final class KubeletConfigMapVolume {

    private final Path dir;
    private Path current;

    KubeletConfigMapVolume(Path dir) {
        this.dir = dir;
    }

    Path dir() {
        return dir;
    }

    /** The directory {@code ..data} points at now. */
    Path current() {
        return current;
    }

    /** Writes {@code files} (key to content) as the version of {@code timestamp}, e.g. 2026_12_04_10_00_00.123. */
    void write(String timestamp, Map<String, String> files) {
        try {
            Path version = Files.createDirectory(dir.resolve(".." + timestamp));
            for (Map.Entry<String, String> file : files.entrySet()) {
                Files.writeString(version.resolve(file.getKey()), file.getValue(), StandardCharsets.UTF_8);
            }
            Path link = Files.createSymbolicLink(dir.resolve("..data_tmp"), version.getFileName());
            Files.move(link, dir.resolve("..data"), StandardCopyOption.ATOMIC_MOVE);
            for (String key : files.keySet()) {
                Path visible = dir.resolve(key);
                if (!Files.isSymbolicLink(visible)) {
                    Files.createSymbolicLink(visible, Path.of("..data", key));
                }
            }
            Path old = current;
            current = version;
            if (old != null) {
                deleteTree(old);
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Removes the whole volume (best effort). */
    void delete() {
        try {
            deleteTree(dir);
        } catch (IOException | UncheckedIOException ignored) {
            // a temporary directory left behind
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> paths = Files.walk(root)) {
            for (Path path : paths.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(path);
            }
        }
    }
}
