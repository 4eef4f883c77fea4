package dev.limiter.redis;

import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Executor;
import java.util.concurrent.RejectedExecutionException;
import redis.clients.jedis.CommandObjects;
import redis.clients.jedis.Connection;
import redis.clients.jedis.RedisProtocol;
import redis.clients.jedis.exceptions.JedisConnectionException;
import redis.clients.jedis.exceptions.JedisNoScriptException;
import redis.clients.jedis.util.Pool;

/**
 * One script run on a single Redis server within ONE time budget, the store's timeout: the wait for a pooled
 * connection (or the connect of a new one), the {@code EVALSHA}, and the {@code EVAL} that follows a
 * {@code NOSCRIPT} all draw on the same deadline.
 *
 * <p>Why not the client's own call: Jedis bounds each step by the timeout separately, so a check that waited for a
 * connection of an exhausted pool and then met a hung server took two timeouts, and a {@code NOSCRIPT} reload two
 * round trips of one timeout each. Here the pool wait is {@code borrowObject(remaining)} and each read's socket
 * timeout is what is left of the budget (set only when less than the configured one is left, so the steady state
 * costs no extra system call). A broken connection is handed to the store's thread to be discarded: commons-pool
 * replaces a discarded connection for a waiting borrower on the discarding thread, which must not be a request
 * thread (a connect on a network that drops packets would cost it another timeout).
 *
 * <p>What stays outside the budget: a new connection's handshake. Opening one (only when the pool has no idle
 * connection) is bounded by the connect timeout, and with credentials or a database in the URI it also sends
 * {@code AUTH} / {@code SELECT}, each read bounded by the timeout; the script then runs only if budget is left.
 */
final class BoundedEval {

    private static final CommandObjects COMMANDS = new CommandObjects(RedisProtocol.RESP2);
    /** Below this much slack the configured socket timeout is left alone (it is the budget anyway). */
    private static final long SLACK_NANOS = 1_000_000;

    private final Pool<Connection> pool;
    private final long budgetNanos;
    private final int configuredMillis;
    private final Executor discarder;
    private final RedisStoreStats stats;

    BoundedEval(Pool<Connection> pool, Duration timeout, Executor discarder, RedisStoreStats stats) {
        this.pool = pool;
        this.budgetNanos = timeout.toNanos();
        this.configuredMillis = (int) Math.max(1, timeout.toMillis());
        this.discarder = discarder;
        this.stats = stats;
    }

    /** The script's reply; throws what Jedis throws, or a timeout when the budget runs out between steps. */
    Object run(LuaScript script, List<byte[]> keys, List<byte[]> args) {
        long deadline = System.nanoTime() + budgetNanos;
        Connection connection = borrow();
        boolean shortened = false;
        try {
            try {
                shortened = limitRead(connection, deadline);
                return connection.executeCommand(COMMANDS.evalsha(script.sha(), keys, args));
            } catch (JedisNoScriptException e) {
                stats.scriptReloads.increment();
                shortened |= limitRead(connection, deadline);
                return connection.executeCommand(COMMANDS.eval(script.source(), keys, args));
            }
        } finally {
            giveBack(connection, shortened);
        }
    }

    private Connection borrow() {
        try {
            return pool.borrowObject(Duration.ofNanos(budgetNanos));
        } catch (RuntimeException e) {
            throw e; // a connect that failed (JedisConnectionException) or the wait that ran out
        } catch (Exception e) {
            throw new JedisConnectionException(e);
        }
    }

    /** Sets the read timeout to what is left of the budget when that is less than the configured one. */
    private boolean limitRead(Connection connection, long deadline) {
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new JedisConnectionException(new SocketTimeoutException("store timeout spent before the command"));
        }
        if (left >= budgetNanos - SLACK_NANOS) {
            return false;
        }
        connection.setSoTimeout((int) Math.max(1, left / 1_000_000));
        return true;
    }

    private void giveBack(Connection connection, boolean shortened) {
        if (!connection.isBroken() && shortened) {
            try {
                connection.setSoTimeout(configuredMillis);
            } catch (RuntimeException e) {
                // setSoTimeout marked it broken: discarded below
            }
        }
        if (!connection.isBroken()) {
            pool.returnObject(connection);
            return;
        }
        try {
            discarder.execute(() -> discard(connection));
        } catch (RejectedExecutionException storeClosed) {
            discard(connection);
        }
    }

    private void discard(Connection connection) {
        try {
            pool.invalidateObject(connection);
        } catch (Exception e) {
            connection.disconnect(); // best effort: the pool is closing
        }
    }
}
