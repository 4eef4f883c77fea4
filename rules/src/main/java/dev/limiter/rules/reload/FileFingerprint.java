package dev.limiter.rules.reload;

import dev.limiter.rules.compile.RuleSetLoader;
import dev.limiter.rules.yaml.YamlTreeReader;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.zip.CRC32;

/**
 * What the watcher compares to decide "the file changed": size, modification time and a hash of the content,
 * all read through symlinks.
 *
 * <p>The content hash is what makes this reliable: a rename over the file, a Kubernetes {@code ..data} symlink
 * swap, or an edit within the file system's timestamp granularity may leave size and mtime unchanged.
 */
record FileFingerprint(boolean exists, long size, long modifiedMillis, long contentHash) {

    static final FileFingerprint MISSING = new FileFingerprint(false, -1, -1, -1);

    /**
     * The fingerprint of {@code file} now. Only a regular file of at most {@link YamlTreeReader#MAX_FILE_BYTES} is
     * read (so a named pipe put in its place cannot block the watcher); anything else is fingerprinted by its
     * attributes, which still change when it is replaced or modified.
     */
    static FileFingerprint of(Path file) {
        BasicFileAttributes attributes;
        try {
            attributes = Files.readAttributes(file, BasicFileAttributes.class); // through symlinks
        } catch (IOException | SecurityException e) {
            return MISSING;
        }
        long modified = attributes.lastModifiedTime().toMillis();
        if (!attributes.isRegularFile()) {
            return new FileFingerprint(true, attributes.isDirectory() ? -2 : -3, modified, 0);
        }
        if (attributes.size() > YamlTreeReader.MAX_FILE_BYTES) {
            return new FileFingerprint(true, attributes.size(), modified, 0);
        }
        byte[] content = RuleSetLoader.readBytes(file);
        return content == null ? new FileFingerprint(true, attributes.size(), modified, 0) : of(file, content);
    }

    /**
     * The fingerprint of {@code file} whose content the caller has read as {@code content}: the hash is of what
     * was read (and parsed), so a change after the read still differs from it.
     */
    static FileFingerprint of(Path file, byte[] content) {
        try {
            long modified = Files.getLastModifiedTime(file).toMillis();
            CRC32 crc = new CRC32();
            crc.update(content);
            return new FileFingerprint(true, content.length, modified, crc.getValue());
        } catch (IOException | SecurityException e) {
            return MISSING;
        }
    }

    /**
     * Written out: a record's generated {@code equals} is bootstrapped through {@code ObjectMethods} on its first
     * call, which spins method-handle classes (~50 ms of CPU on the watcher thread while the application starts).
     */
    @Override
    public boolean equals(Object other) {
        return other instanceof FileFingerprint that && exists == that.exists && size == that.size
                && modifiedMillis == that.modifiedMillis && contentHash == that.contentHash;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(size * 31 + modifiedMillis) * 31 + Long.hashCode(contentHash);
    }

    @Override
    public String toString() {
        return "FileFingerprint[exists=" + exists + ", size=" + size + ", modifiedMillis=" + modifiedMillis
                + ", contentHash=" + contentHash + "]";
    }
}
