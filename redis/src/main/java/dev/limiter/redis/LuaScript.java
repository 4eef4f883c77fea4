package dev.limiter.redis;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/**
 * One strategy's Lua script: its source and SHA-1, so a check is a single {@code EVALSHA} round trip.
 *
 * <p>Why no {@code SCRIPT LOAD} up front: a server that restarted or ran {@code SCRIPT FLUSH} (and every node of a
 * cluster, each with its own script cache) answers {@code NOSCRIPT}; the store then sends the same check as
 * {@code EVAL} with the source, which runs it and caches it again, so the check still takes effect exactly once
 * and the next one is an {@code EVALSHA} again.
 */
final class LuaScript {

    static final LuaScript FIXED_WINDOW = load("fixed-window.lua");
    static final LuaScript SLIDING_WINDOW = load("sliding-window.lua");
    static final LuaScript SLIDING_LOG = load("sliding-log.lua");
    static final LuaScript GCRA = load("gcra.lua");
    static final LuaScript CONCURRENCY = load("concurrency.lua");
    static final LuaScript ALL_OF = load("all-of.lua");

    private final String name;
    private final byte[] source;
    private final byte[] sha;

    private LuaScript(String name, byte[] source) {
        this.name = name;
        this.source = source;
        this.sha = sha1Hex(source).getBytes(StandardCharsets.US_ASCII);
    }

    String name() {
        return name;
    }

    byte[] source() {
        return source;
    }

    byte[] sha() {
        return sha;
    }

    private static LuaScript load(String resource) {
        try (InputStream in = LuaScript.class.getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("missing script resource " + resource);
            }
            return new LuaScript(resource, in.readAllBytes());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static String sha1Hex(byte[] data) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-1").digest(data);
            StringBuilder hex = new StringBuilder(40);
            for (byte b : digest) {
                hex.append(Character.forDigit((b >> 4) & 0xF, 16)).append(Character.forDigit(b & 0xF, 16));
            }
            return hex.toString();
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-1 is required by every JDK", e);
        }
    }
}
