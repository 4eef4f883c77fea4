package dev.limiter.rules.compile;

import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlTreeReader;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;

/**
 * Reads the bytes of a rules file the one safe way: only a regular file (through symlinks), never more than
 * {@link YamlTreeReader#MAX_FILE_BYTES} bytes, and whatever stands in the way said in one sentence a person can
 * act on (missing, a directory, a named pipe, a dangling symlink or a loop, no permission, too large).
 *
 * <p>Why the file's type is checked before it is opened: opening a named pipe (FIFO) for reading blocks until
 * some process opens it for writing, which may be never; at start-up that would be the application's main
 * thread, on reload the watcher's thread (live reload would stop for good). Devices and sockets can likewise
 * block or never end. Java cannot open without blocking or stat an open stream, so a file swapped for a FIFO
 * between the check and the open (microseconds) can still block: only someone who can already replace the rules
 * file can do that, and they could as well write {@code rules: []}. The read itself is bounded, so a file that
 * grows after its size was checked is still refused without reading more than one byte past the bound.
 */
public final class RulesFileBytes {

    private RulesFileBytes() {
    }

    /**
     * The file's bytes, or null after adding to {@code problems} (at 1:1, the file as a whole) why it cannot be
     * used.
     */
    public static byte[] read(Path file, Problems problems) {
        String refused = refusal(file);
        if (refused != null) {
            problems.add(1, 1, refused);
            return null;
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] bytes = in.readNBytes(YamlTreeReader.MAX_FILE_BYTES + 1);
            if (bytes.length > YamlTreeReader.MAX_FILE_BYTES) {
                problems.add(1, 1, YamlTreeReader.tooLarge());
                return null;
            }
            return bytes;
        } catch (IOException | SecurityException e) {
            problems.add(1, 1, cannotRead(file, e));
            return null;
        }
    }

    /**
     * Why {@code file} cannot be read as a rules file without opening it, or null if it is a regular file of
     * at most {@link YamlTreeReader#MAX_FILE_BYTES} bytes (as of now: it may change before it is opened).
     */
    static String refusal(Path file) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class); // through symlinks
        } catch (IOException | SecurityException e) {
            return cannotRead(file, e);
        }
        if (attributes.isDirectory()) {
            return "the rules file is a directory, not a file";
        }
        if (!attributes.isRegularFile()) {
            return "the rules file is not a regular file (a named pipe, socket or device): not read, since reading"
                    + " it could block or never end";
        }
        if (attributes.size() > YamlTreeReader.MAX_FILE_BYTES) {
            return YamlTreeReader.tooLarge() + " (it has " + attributes.size() + ")";
        }
        return null;
    }

    private static String cannotRead(Path file, Exception e) {
        if (e instanceof NoSuchFileException) {
            if (Files.isSymbolicLink(file)) {
                return "the rules file is a symbolic link to a file that does not exist (" + target(file) + ")";
            }
            return "the rules file does not exist";
        }
        if (e instanceof AccessDeniedException) {
            return "cannot read the rules file: permission denied";
        }
        if (e instanceof FileSystemException fileSystem && fileSystem.getReason() != null) {
            String reason = fileSystem.getReason();
            // ELOOP, which the JDK words "Too many levels of symbolic links or unable to access attributes of ..."
            return "cannot read the rules file: " + (reason.startsWith("Too many levels of symbolic links")
                    ? "a loop of symbolic links" : reason);
        }
        return "cannot read the rules file: " + e;
    }

    private static String target(Path link) {
        try {
            return String.valueOf(Files.readSymbolicLink(link));
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return "unreadable link";
        }
    }
}
