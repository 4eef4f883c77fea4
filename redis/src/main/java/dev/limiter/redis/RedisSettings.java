package dev.limiter.redis;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * How to reach Redis and how to behave when it does not answer: the {@code store:} section of the rules file.
 *
 * <p>{@code uris} holds one {@code redis://} or {@code rediss://} (TLS) URI for a single server, or several
 * (the seed nodes) for a Redis Cluster; user and password go in the URI ({@code redis://user:secret@host:6379}),
 * a database number in its path ({@code redis://host:6379/2}, single server only). {@link #parse} also accepts
 * one comma-separated string, as YAML users write it.
 *
 * @param uris             one server, or cluster seed nodes
 * @param cluster          true to talk the cluster protocol (automatic with more than one URI)
 * @param timeout          the longest a check waits on Redis (pool wait, connect and reads share it on a single
 *                         server; a cluster bounds each of them by it); then {@code onFailure}
 * @param onFailure        what a check does while Redis is unavailable
 * @param keyPrefix        prepended to every Redis key (must not contain braces: they mark the hash tag)
 * @param poolSize         connections per server (a check holds one for one round trip)
 * @param probeInterval    how often an open circuit probes Redis
 * @param concurrencyLease how long the permits of a JVM that stopped renewing them (crashed) stay taken
 * @param batch            permits a JVM reserves per round trip for fixed-window, token-bucket and leaky-bucket
 *                         keys (1 = off, the default: every check is a round trip); see {@link LocalSlice}
 */
public record RedisSettings(List<String> uris, boolean cluster, Duration timeout, OnFailure onFailure,
        String keyPrefix, int poolSize, Duration probeInterval, Duration concurrencyLease, int batch) {

    public static final Duration DEFAULT_TIMEOUT = Duration.ofMillis(50);
    public static final String DEFAULT_KEY_PREFIX = "limiter:";
    public static final int DEFAULT_POOL_SIZE = 16;
    public static final Duration DEFAULT_PROBE_INTERVAL = Duration.ofMillis(250);
    public static final Duration DEFAULT_CONCURRENCY_LEASE = Duration.ofSeconds(30);

    public RedisSettings {
        if (uris == null || uris.isEmpty()) {
            throw new IllegalArgumentException("store.uri is required");
        }
        uris = List.copyOf(uris);
        for (String uri : uris) {
            if (!uri.startsWith("redis://") && !uri.startsWith("rediss://")) {
                throw new IllegalArgumentException("store.uri must start with redis:// or rediss://: " + uri);
            }
        }
        cluster = cluster || uris.size() > 1;
        if (timeout == null || timeout.isNegative() || timeout.isZero() || timeout.toMillis() > Integer.MAX_VALUE) {
            throw new IllegalArgumentException("store.timeout must be positive: " + timeout);
        }
        if (onFailure == null) {
            throw new IllegalArgumentException("store.on-failure must be local, allow or reject");
        }
        if (keyPrefix == null || keyPrefix.indexOf('{') >= 0 || keyPrefix.indexOf('}') >= 0) {
            throw new IllegalArgumentException("store.key-prefix must not contain '{' or '}': " + keyPrefix);
        }
        if (poolSize < 1) {
            throw new IllegalArgumentException("store pool size must be at least 1: " + poolSize);
        }
        if (probeInterval == null || probeInterval.toMillis() < 1) {
            throw new IllegalArgumentException("store probe interval must be at least 1 ms: " + probeInterval);
        }
        if (concurrencyLease == null || concurrencyLease.toMillis() < 3) {
            throw new IllegalArgumentException("store concurrency lease must be at least 3 ms: " + concurrencyLease);
        }
        if (batch < 1 || batch > 1_000_000) {
            throw new IllegalArgumentException("store batch must be in [1, 1000000] (1 = off): " + batch);
        }
    }

    /** Defaults for everything but the URI(s): 50 ms timeout, on-failure LOCAL, prefix {@code limiter:}. */
    public static RedisSettings of(String... uris) {
        return new RedisSettings(List.of(uris), false, DEFAULT_TIMEOUT, OnFailure.LOCAL, DEFAULT_KEY_PREFIX,
                DEFAULT_POOL_SIZE, DEFAULT_PROBE_INTERVAL, DEFAULT_CONCURRENCY_LEASE, 1);
    }

    /** {@link #of} from one string that may list several URIs separated by commas. */
    public static RedisSettings parse(String uriList) {
        if (uriList == null) {
            throw new IllegalArgumentException("store.uri is required");
        }
        List<String> list = new ArrayList<>();
        for (String part : uriList.split(",")) {
            String trimmed = part.trim();
            if (!trimmed.isEmpty()) {
                list.add(trimmed);
            }
        }
        return of(list.toArray(new String[0]));
    }

    public RedisSettings withCluster(boolean cluster) {
        return new RedisSettings(uris, cluster, timeout, onFailure, keyPrefix, poolSize, probeInterval,
                concurrencyLease, batch);
    }

    public RedisSettings withTimeout(Duration timeout) {
        return new RedisSettings(uris, cluster, timeout, onFailure, keyPrefix, poolSize, probeInterval,
                concurrencyLease, batch);
    }

    public RedisSettings withOnFailure(OnFailure onFailure) {
        return new RedisSettings(uris, cluster, timeout, onFailure, keyPrefix, poolSize, probeInterval,
                concurrencyLease, batch);
    }

    public RedisSettings withKeyPrefix(String keyPrefix) {
        return new RedisSettings(uris, cluster, timeout, onFailure, keyPrefix, poolSize, probeInterval,
                concurrencyLease, batch);
    }

    public RedisSettings withPoolSize(int poolSize) {
        return new RedisSettings(uris, cluster, timeout, onFailure, keyPrefix, poolSize, probeInterval,
                concurrencyLease, batch);
    }

    public RedisSettings withProbeInterval(Duration probeInterval) {
        return new RedisSettings(uris, cluster, timeout, onFailure, keyPrefix, poolSize, probeInterval,
                concurrencyLease, batch);
    }

    public RedisSettings withConcurrencyLease(Duration concurrencyLease) {
        return new RedisSettings(uris, cluster, timeout, onFailure, keyPrefix, poolSize, probeInterval,
                concurrencyLease, batch);
    }

    /** Reserve {@code batch} permits per round trip on batchable keys (1 = off). */
    public RedisSettings withBatch(int batch) {
        return new RedisSettings(uris, cluster, timeout, onFailure, keyPrefix, poolSize, probeInterval,
                concurrencyLease, batch);
    }

    /** The URIs without passwords, for logs and JMX. */
    @Override
    public String toString() {
        List<String> safe = new ArrayList<>();
        for (String uri : uris) {
            safe.add(uri.replaceAll("//[^@/]*@", "//***@"));
        }
        return "RedisSettings[uris=" + safe + ", cluster=" + cluster + ", timeout=" + timeout + ", onFailure="
                + onFailure + ", keyPrefix=" + keyPrefix + ", poolSize=" + poolSize + ", batch=" + batch + "]";
    }
}
