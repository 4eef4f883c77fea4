package dev.limiter.redis;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.strategy.Strategies;
import java.lang.ref.WeakReference;
import java.net.SocketTimeoutException;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import redis.clients.jedis.Connection;
import redis.clients.jedis.ConnectionPool;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.RedisClient;
import redis.clients.jedis.RedisClusterClient;
import redis.clients.jedis.UnifiedJedis;
import redis.clients.jedis.exceptions.JedisAccessControlException;
import redis.clients.jedis.exceptions.JedisDataException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.params.ScanParams;
import redis.clients.jedis.resps.ScanResult;

/**
 * The entry point of distributed limits: one connection set to Redis (one server or a cluster), shared by the
 * {@link KeyedLimiter}s of every rule with {@code store: redis}.
 *
 * <pre>
 *   RedisStore store = RedisStore.connect(RedisSettings.of("redis://127.0.0.1:6379"));
 *   KeyedLimiter limiter = store.limiter("api-key", "token-bucket", LimitConfig.of(100, 60_000), 100_000);
 *   ...
 *   store.close();
 * </pre>
 *
 * <p>Why one store for many limiters: connections, the circuit breaker and the statistics belong to the server,
 * not to a rule. When Redis fails, every rule of the store falls back at once and recovers at once.
 *
 * <p>Threads: request threads do their own blocking round trip on a pooled connection (bounded by the timeout);
 * one daemon thread ({@code limiter-redis}) probes Redis while the circuit is open and renews concurrency leases.
 * {@link #connect} never fails because Redis is down: the store then starts with an open circuit and recovers
 * by itself when Redis appears.
 */
public final class RedisStore implements AutoCloseable {

    private final RedisSettings settings;
    private final String instanceId;
    private final Circuit circuit = new Circuit();
    private final RedisStoreStats stats;
    private final ScheduledExecutorService timer;
    /**
     * Limiters to maintain (lease renewals, queued releases), weakly: a rule reloaded with another strategy gets a
     * new limiter, and the old one drops out of here once nothing (no rule, no call in flight) refers to it.
     */
    private final List<WeakReference<RedisKeyedLimiter>> limiters = new CopyOnWriteArrayList<>();
    private volatile UnifiedJedis client;
    /** The checks of a single server, all steps within one timeout; null for a cluster. */
    private volatile BoundedEval bounded;
    private volatile boolean closed;

    private RedisStore(RedisSettings settings) {
        this.settings = settings;
        this.instanceId = UUID.randomUUID().toString();
        this.stats = new RedisStoreStats(settings.cluster() ? "redis-cluster" : "redis", this);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "limiter-redis");
            t.setDaemon(true);
            return t;
        });
    }

    /**
     * Opens the connection pool(s) and checks that Redis answers (at most one timeout). If it does not, the
     * store starts in {@link StoreState#FALLBACK} and its prober keeps trying.
     *
     * @throws IllegalArgumentException if the settings are invalid
     */
    public static RedisStore connect(RedisSettings settings) {
        if (settings == null) {
            throw new IllegalArgumentException("settings are required");
        }
        RedisStore store = new RedisStore(settings);
        store.start();
        return store;
    }

    /**
     * True if the store has a script for {@code strategy}, so {@link #limiter} can run it: the built-ins do,
     * custom strategies (Java code that only runs in a JVM) do not.
     */
    public static boolean runs(RateLimitStrategy strategy) {
        return RedisKeyedLimiter.script(strategy.name()) != null;
    }

    /**
     * A limiter for one rule, sharing its state with every JVM that uses the same rule id on the same Redis.
     *
     * @param ruleId       the rule's id: it is part of every Redis key, so it must be the same in every JVM
     * @param strategyName one of the built-in strategies ({@code fixed-window}, {@code token-bucket},
     *                     {@code sliding-window}, {@code sliding-log}, {@code leaky-bucket}, {@code concurrency})
     * @param maxKeys      bound of the local fallback limiter (on-failure: local); Redis keys expire by themselves
     * @throws IllegalArgumentException for an unknown strategy, a custom one (no Redis script) or limits the
     *                                  script cannot compute exactly
     */
    public KeyedLimiter limiter(String ruleId, String strategyName, LimitConfig config, int maxKeys) {
        if (ruleId == null || ruleId.isEmpty()) {
            throw new IllegalArgumentException("rule id is required");
        }
        RateLimitStrategy strategy = Strategies.byName(strategyName);
        if (strategy == null) {
            throw new IllegalArgumentException("unknown strategy '" + strategyName + "'; known: " + Strategies.names());
        }
        RedisKeyedLimiter limiter = new RedisKeyedLimiter(this, ruleId, strategy, config, maxKeys);
        limiters.add(new WeakReference<>(limiter));
        return limiter;
    }

    /** Statistics for JMX. */
    public RedisStoreStats stats() {
        return stats;
    }

    public RedisSettings settings() {
        return settings;
    }

    /** UP, FALLBACK or DOWN. */
    public StoreState state() {
        if (closed) {
            return StoreState.DOWN;
        }
        return circuit.isOpen() ? StoreState.FALLBACK : StoreState.UP;
    }

    /** Stops the prober and closes the connections; checks then apply on-failure. */
    @Override
    public void close() {
        closed = true;
        timer.shutdownNow();
        UnifiedJedis c = client;
        if (c != null) {
            try {
                c.close();
            } catch (RuntimeException ignored) {
                // closing is best effort
            }
        }
    }

    Circuit circuit() {
        return circuit;
    }

    /** Identifies this store's permits in concurrency keys (one per JVM and store). */
    String instanceId() {
        return instanceId;
    }

    /**
     * Runs {@code script} on the key in one round trip. Returns the reply, or null if Redis is unavailable (the
     * circuit is open, the round trip failed or timed out): the caller then applies on-failure. Never throws.
     */
    Object eval(LuaScript script, List<byte[]> keys, List<byte[]> args) {
        UnifiedJedis c = client;
        if (c == null || closed || circuit.isOpen()) {
            return null;
        }
        long start = System.nanoTime();
        try {
            Object reply;
            BoundedEval single = bounded;
            if (single != null) {
                reply = single.run(script, keys, args);
            } else {
                try {
                    reply = c.evalsha(script.sha(), keys, args);
                } catch (JedisNoScriptException e) {
                    stats.scriptReloads.increment();
                    reply = c.eval(script.source(), keys, args);
                }
            }
            stats.latency.record((System.nanoTime() - start) / 1000);
            stats.roundTrips.increment();
            return reply;
        } catch (RuntimeException e) {
            failed(e);
            return null;
        }
    }

    /** Runs a maintenance command (reset, key counts); failures count as errors and trip the circuit. */
    <T> T admin(java.util.function.Function<UnifiedJedis, T> command) {
        UnifiedJedis c = client;
        if (c == null || closed) {
            throw new IllegalStateException("Redis store is not connected");
        }
        try {
            return command.apply(c);
        } catch (RuntimeException e) {
            failed(e);
            throw e;
        }
    }

    /** Runs {@code action} on one connection to every master (SCAN must visit every node of a cluster). */
    void forEachNode(Consumer<Jedis> action) {
        admin(c -> {
            if (c instanceof RedisClusterClient cluster) {
                for (ConnectionPool pool : cluster.getClusterNodes().values()) {
                    try (Connection connection = pool.getResource()) {
                        Jedis node = new Jedis(connection);
                        if (isMaster(node)) {
                            action.accept(node);
                        }
                    }
                }
            } else if (c instanceof RedisClient single) {
                try (Connection connection = single.getPool().getResource()) {
                    action.accept(new Jedis(connection));
                }
            }
            return null;
        });
    }

    /** Every key matching {@code pattern} on every node (maintenance only: O(keys)). */
    List<String> scan(String pattern) {
        List<String> found = new ArrayList<>();
        forEachNode(node -> {
            ScanParams params = new ScanParams().match(pattern).count(1000);
            String cursor = ScanParams.SCAN_POINTER_START;
            do {
                ScanResult<String> page = node.scan(cursor, params);
                found.addAll(page.getResult());
                cursor = page.getCursor();
            } while (!ScanParams.SCAN_POINTER_START.equals(cursor));
        });
        return found;
    }

    private static boolean isMaster(Jedis node) {
        String info = node.info("replication");
        return info.contains("role:master");
    }

    private void failed(RuntimeException e) {
        stats.errors.increment();
        boolean timeout = isTimeout(e);
        if (timeout) {
            stats.timeouts.increment();
        }
        stats.failed(e, timeout);
        // a server-side error (a bad script, a wrong key type, missing permissions) is not an outage: Redis
        // answered, so the circuit stays closed and only this check applies on-failure
        boolean answered = e instanceof JedisAccessControlException || e.getClass() == JedisDataException.class;
        if (!answered) {
            circuit.trip();
        }
    }

    private static boolean isTimeout(Throwable e) {
        for (Throwable t = e; t != null; t = t.getCause()) {
            if (t instanceof SocketTimeoutException) {
                return true;
            }
            String m = t.getMessage();
            if (m != null && (m.contains("timed out") || m.contains("Timeout"))) {
                return true;
            }
        }
        return false;
    }

    private void start() {
        try {
            use(RedisClients.open(settings));
            probe(client);
        } catch (RuntimeException e) {
            stats.errors.increment();
            stats.failure(e);
            circuit.trip();
        }
        long probe = settings.probeInterval().toMillis();
        timer.scheduleWithFixedDelay(this::probeIfOpen, probe, probe, TimeUnit.MILLISECONDS);
        long renew = Math.max(1, settings.concurrencyLease().toMillis() / 3);
        timer.scheduleWithFixedDelay(this::maintain, renew, renew, TimeUnit.MILLISECONDS);
    }

    private void use(UnifiedJedis c) {
        if (c instanceof RedisClient single) {
            bounded = new BoundedEval(single.getPool(), settings.timeout(), timer, stats);
        }
        client = c;
    }

    /** The prober: runs on the store's daemon thread, never on a request thread. */
    private void probeIfOpen() {
        if (closed || !circuit.isOpen()) {
            return;
        }
        try {
            UnifiedJedis c = client;
            if (c == null) {
                c = RedisClients.open(settings); // a cluster client needs a reachable node to start
                use(c);
            }
            probe(c);
            RedisClients.clearIdle(c); // connections from before the outage may point at a dead server
            circuit.close();
        } catch (RuntimeException stillDown) {
            stats.failure(stillDown); // keep the circuit open; the next probe comes after the probe interval
        }
    }

    /** One PING per master (a cluster is only up if every slot's master answers). */
    private static void probe(UnifiedJedis c) {
        if (c instanceof RedisClusterClient cluster) {
            cluster.refreshClusterTopology();
            for (ConnectionPool pool : cluster.getClusterNodes().values()) {
                try (Connection connection = pool.getResource()) {
                    if (!connection.ping()) {
                        throw new IllegalStateException("PING failed");
                    }
                }
            }
        } else {
            c.ping();
        }
    }

    private void maintain() {
        if (closed) {
            return;
        }
        limiters.removeIf(ref -> ref.get() == null);
        for (WeakReference<RedisKeyedLimiter> ref : limiters) {
            RedisKeyedLimiter limiter = ref.get();
            if (limiter == null) {
                continue;
            }
            try {
                limiter.maintain();
            } catch (RuntimeException e) {
                // counted by eval(); the next round retries
            }
        }
    }

    @Override
    public String toString() {
        return "RedisStore[" + settings + ", state=" + state() + "]";
    }
}
