package dev.limiter.rules.key;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;

/**
 * The bound on what a rule keeps per key: a key longer than {@value #MAX_CHARS} characters is kept as a fixed-size
 * digest of itself.
 *
 * <p>Why: a key table holds its keys. A client chooses the text of {@code header:} and {@code param:} keys (and
 * of {@code path} keys), and containers let a header grow to 8-64 KB and a form parameter to megabytes, so
 * {@code max-keys} (up to 100,000,000) times a 64 KB key is not a memory bound at all. Truncating would be one:
 * but every API token and JWT of one issuer starts alike, so truncation would put unrelated clients into one
 * budget and let a client pick another's prefix. A digest keeps distinct keys distinct.
 *
 * <p>The long key becomes its first {@value #KEPT_PREFIX} characters (for a person reading the top rejected
 * keys), {@code ~sha256:} and the SHA-256 of the whole key's UTF-16 text in base64url: {@value #DIGEST_FORM_LENGTH}
 * characters, whatever the length of the original. SHA-256 and not a fast hash: a client must not be able to
 * compute a key of its own that collides with another client's (and spend that client's budget). Keys of at
 * most {@value #MAX_CHARS} characters are kept as they are, so the usual key costs one length check.
 *
 * <p>Cost of a long key: one SHA-256 over it (about as much as the container's own parsing of it), and none for
 * the same long key as the thread's previous one (an {@code Authorization} token repeated by a client).
 */
public final class KeyBound {

    /** Keys up to this many characters are kept as they are. */
    public static final int MAX_CHARS = 256;
    /** How much of a long key is kept readable in front of its digest. */
    public static final int KEPT_PREFIX = 64;
    static final String MARKER = "~sha256:";
    /** The length of every bounded long key. */
    public static final int DIGEST_FORM_LENGTH = KEPT_PREFIX + 8 + 43;

    /**
     * Per thread: the last long key, its bounded form, and the digest and byte buffer to compute the next one. A
     * subclass, not {@code withInitial(...)}: no lambda to spin while the application starts.
     */
    private static final ThreadLocal<Scratch> SCRATCH = new ThreadLocal<>() {
        @Override
        protected Scratch initialValue() {
            return new Scratch();
        }
    };

    private static final class Scratch {
        final byte[] bytes = new byte[2048];
        final MessageDigest sha256;
        String input;
        String bounded;

        Scratch() {
            try {
                sha256 = MessageDigest.getInstance("SHA-256");
            } catch (NoSuchAlgorithmException e) {
                throw new IllegalStateException("every Java platform has SHA-256", e);
            }
        }
    }

    private KeyBound() {
    }

    /** {@code key} itself if it has at most {@value #MAX_CHARS} characters (or is null); otherwise its digest form. */
    public static String bound(String key) {
        if (key == null || key.length() <= MAX_CHARS) {
            return key;
        }
        Scratch scratch = SCRATCH.get();
        if (key.equals(scratch.input)) {
            return scratch.bounded;
        }
        String bounded = digestForm(key, scratch);
        scratch.input = key;
        scratch.bounded = bounded;
        return bounded;
    }

    private static String digestForm(String key, Scratch scratch) {
        MessageDigest sha256 = scratch.sha256;
        sha256.reset();
        byte[] bytes = scratch.bytes;
        int length = key.length();
        // the UTF-16 code units, big-endian: every String (lone surrogates included) has exactly one such text
        for (int from = 0; from < length; ) {
            int to = Math.min(length, from + bytes.length / 2);
            for (int i = from, b = 0; i < to; i++) {
                char c = key.charAt(i);
                bytes[b++] = (byte) (c >>> 8);
                bytes[b++] = (byte) c;
            }
            sha256.update(bytes, 0, 2 * (to - from));
            from = to;
        }
        String digest = Base64.getUrlEncoder().withoutPadding().encodeToString(sha256.digest());
        return key.substring(0, KEPT_PREFIX).concat(MARKER).concat(digest);
    }
}
