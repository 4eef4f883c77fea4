package dev.limiter.redis;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.Set;
import redis.clients.jedis.ClientSetInfoConfig;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.ConnectionPoolConfig;
import redis.clients.jedis.DefaultJedisClientConfig;
import redis.clients.jedis.HostAndPort;
import redis.clients.jedis.JedisClientConfig;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;

/**
 * Builds the Jedis client of a {@link RedisStore} from its {@link RedisSettings}: a pooled client for one server,
 * a cluster client (slot map, one pool per node, MOVED/ASK handling) for a cluster.
 *
 * <p>Why these options: every socket operation (connect, read) and the wait for a pooled connection are bounded
 * by the store's timeout, so no check waits on Redis for longer than that per operation; the cluster client may
 * retry a redirect, but never for longer than the timeout in total. On a single server {@link BoundedEval}
 * tightens this to one timeout for the whole check. A new connection sends no handshake
 * ({@code CLIENT SETINFO} off, no RESP3 negotiation, no name), so opening one costs one TCP connect and nothing
 * else (plus AUTH when the URI has credentials). That matters on the failure path too: Jedis replaces a broken
 * connection on the thread that broke it, and with Jedis 8's default {@code HELLO} handshake a frozen server
 * cost that thread a second timeout (measured: ~200 ms per failed check with a 100 ms timeout, ~100 ms without). Pool JMX registration is off: the agent must not touch JMX at start-up, and it
 * publishes its own store statistics.
 */
final class RedisClients {

    /** Redirects a cluster command may follow (MOVED after a resharding, ASK during one). */
    private static final int CLUSTER_ATTEMPTS = 2;

    private RedisClients() {
    }

    static UnifiedJedis open(RedisSettings settings) {
        URI first = URI.create(settings.uris().get(0));
        JedisClientConfig config = clientConfig(first, settings.timeout(), !settings.cluster());
        ConnectionPoolConfig pool = poolConfig(settings);
        if (!settings.cluster()) {
            return RedisClient.builder()
                    .hostAndPort(hostAndPort(first))
                    .clientConfig(config)
                    .poolConfig(pool)
                    .build();
        }
        Set<HostAndPort> nodes = new LinkedHashSet<>();
        for (String uri : settings.uris()) {
            nodes.add(hostAndPort(URI.create(uri)));
        }
        return RedisClusterClient.builder()
                .nodes(nodes)
                .clientConfig(config)
                .poolConfig(pool)
                .maxAttempts(CLUSTER_ATTEMPTS)
                .maxTotalRetriesDuration(settings.timeout())
                .build();
    }

    /** Drops idle connections (they may point at a server that restarted), so the next checks open fresh ones. */
    static void clearIdle(UnifiedJedis client) {
        if (client instanceof RedisClient single) {
            single.getPool().clear();
        } else if (client instanceof RedisClusterClient cluster) {
            for (ConnectionPool pool : cluster.getClusterNodes().values()) {
                pool.clear();
            }
        }
    }

    private static JedisClientConfig clientConfig(URI uri, Duration timeout, boolean database) {
        int millis = (int) Math.max(1, timeout.toMillis());
        DefaultJedisClientConfig.Builder b = DefaultJedisClientConfig.builder()
                .connectionTimeoutMillis(millis)
                .socketTimeoutMillis(millis)
                .clientSetInfoConfig(ClientSetInfoConfig.DISABLED)
                .autoNegotiateProtocol(false) // no HELLO: RESP2, the server's default
                .ssl("rediss".equalsIgnoreCase(uri.getScheme()));
        String userInfo = uri.getRawUserInfo();
        if (userInfo != null && !userInfo.isEmpty()) {
            int colon = userInfo.indexOf(':');
            if (colon < 0) {
                b.password(decode(userInfo)); // redis://secret@host: the password of the default user
            } else {
                String user = decode(userInfo.substring(0, colon));
                if (!user.isEmpty()) {
                    b.user(user);
                }
                b.password(decode(userInfo.substring(colon + 1)));
            }
        }
        String path = uri.getPath();
        if (database && path != null && path.length() > 1) {
            b.database(Integer.parseInt(path.substring(1)));
        }
        return b.build();
    }

    private static ConnectionPoolConfig poolConfig(RedisSettings settings) {
        ConnectionPoolConfig pool = new ConnectionPoolConfig();
        pool.setMaxTotal(settings.poolSize());
        pool.setMaxIdle(settings.poolSize());
        pool.setMinIdle(0);
        pool.setBlockWhenExhausted(true);
        pool.setMaxWait(settings.timeout());
        pool.setTestOnBorrow(false);
        pool.setTestOnReturn(false);
        pool.setJmxEnabled(false);
        return pool;
    }

    private static HostAndPort hostAndPort(URI uri) {
        if (uri.getHost() == null) {
            throw new IllegalArgumentException("store.uri has no host: " + uri.getScheme() + "://...");
        }
        return new HostAndPort(uri.getHost(), uri.getPort() > 0 ? uri.getPort() : 6379);
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }
}
