package dev.limiter.rules;

import java.util.List;

/**
 * Where a rule's state lives, as the rules file says: this JVM ({@link #LOCAL}) or a Redis server or cluster
 * shared by every JVM that names the same store.
 *
 * <p>A plain value (no client, no connection) so that the rules module stays free of Redis: the
 * {@link LimiterFactory} installed by the agent turns a spec into a connection. Two specs are equal when every
 * field is, which is what decides on reload whether the connection is kept (equal) or replaced (changed).
 *
 * @param type          {@code local} or {@code redis}
 * @param uris          the server, or the seed nodes of a cluster ({@code redis://} or {@code rediss://}); empty
 *                      for local
 * @param timeoutMillis the bound of one Redis operation
 * @param onFailure     {@code local}, {@code allow} or {@code reject}: what a check does while Redis is down
 * @param keyPrefix     prepended to every Redis key
 * @param batch         permits a JVM reserves per round trip on fixed-window, token-bucket and leaky-bucket keys
 *                      (1 = off, the default: every check is one round trip)
 */
public record StoreSpec(String type, List<String> uris, long timeoutMillis, String onFailure, String keyPrefix,
        int batch) {

    /** The spelling of the in-JVM store. */
    public static final String TYPE_LOCAL = "local";
    /** The spelling of the Redis store. */
    public static final String TYPE_REDIS = "redis";
    /** Default bound of one Redis operation. */
    public static final long DEFAULT_TIMEOUT_MILLIS = 50;
    /** Default on-failure. */
    public static final String DEFAULT_ON_FAILURE = "local";
    /** Default key prefix. */
    public static final String DEFAULT_KEY_PREFIX = "limiter:";
    /** Default batch: off. */
    public static final int DEFAULT_BATCH = 1;
    /** Largest batch (the Redis store refuses more). */
    public static final int MAX_BATCH = 1_000_000;

    /** State in this JVM: the default. */
    public static final StoreSpec LOCAL = new StoreSpec(TYPE_LOCAL, List.of(), DEFAULT_TIMEOUT_MILLIS,
            DEFAULT_ON_FAILURE, DEFAULT_KEY_PREFIX, DEFAULT_BATCH);

    public StoreSpec {
        uris = List.copyOf(uris);
    }

    /** A spec without batching. */
    public StoreSpec(String type, List<String> uris, long timeoutMillis, String onFailure, String keyPrefix) {
        this(type, uris, timeoutMillis, onFailure, keyPrefix, DEFAULT_BATCH);
    }

    /** True for a Redis store. */
    public boolean isRedis() {
        return TYPE_REDIS.equals(type);
    }

    /** The URIs joined by commas (the form {@code RedisSettings.parse} reads). */
    public String uriList() {
        return String.join(",", uris);
    }

    @Override
    public String toString() {
        return isRedis() ? "redis " + uriList() + " (timeout " + timeoutMillis + "ms, on-failure " + onFailure
                + ", key-prefix " + keyPrefix + (batch > 1 ? ", batch " + batch : "") + ")" : "local";
    }
}
