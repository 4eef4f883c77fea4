package dev.limiter.redis;

import static org.awaitility.Awaitility.await;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Stream;
import redis.clients.jedis.Jedis;

/**
 * A private {@code redis-server} for tests: a free port, a temp dir, no persistence; never the system one on 6379.
 * Can be killed, frozen (SIGSTOP) and restarted on the same port, to test the store's failure handling.
 */
final class RedisServer implements AutoCloseable {

    private final Path dir;
    private final int port;
    private final List<String> extraArgs;
    private Process process;

    private RedisServer(int port, List<String> extraArgs) throws IOException {
        this.port = port;
        this.extraArgs = extraArgs;
        this.dir = Files.createTempDirectory("limiter-redis-" + port + "-");
    }

    static RedisServer start(String... extraArgs) {
        try {
            RedisServer server = new RedisServer(freePort(), List.of(extraArgs));
            server.launch();
            return server;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0)) {
            socket.setReuseAddress(true);
            return socket.getLocalPort();
        }
    }

    int port() {
        return port;
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** A direct connection for assertions (INFO, TTL, SCRIPT FLUSH...). */
    Jedis jedis() {
        return new Jedis("127.0.0.1", port, 2000);
    }

    void launch() throws IOException {
        List<String> cmd = new ArrayList<>(List.of("redis-server", "--port", String.valueOf(port), "--bind",
                "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--daemonize", "no",
                "--loglevel", "warning"));
        cmd.addAll(extraArgs);
        process = new ProcessBuilder(cmd).directory(dir.toFile())
                .redirectErrorStream(true)
                .redirectOutput(dir.resolve("redis.log").toFile())
                .start();
        await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
            try (Jedis j = jedis()) {
                return "PONG".equals(j.ping());
            } catch (redis.clients.jedis.exceptions.JedisDataException e) {
                // --requirepass: a server that asks for a password is up
                return e.getMessage() != null && e.getMessage().startsWith("NOAUTH");
            }
        });
    }

    /** SIGKILL: the server vanishes with its data (no persistence), as a crash would. */
    void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Starts a fresh, empty server on the same port. */
    void restart() throws IOException {
        launch();
    }

    /** SIGSTOP: the server keeps its sockets but answers nothing (a hung or partitioned server). */
    void freeze() throws IOException, InterruptedException {
        signal("STOP");
    }

    void thaw() throws IOException, InterruptedException {
        signal("CONT");
    }

    private void signal(String name) throws IOException, InterruptedException {
        Process kill = new ProcessBuilder("kill", "-" + name, String.valueOf(process.pid())).inheritIO().start();
        if (kill.waitFor() != 0) {
            throw new IllegalStateException("kill -" + name + " failed");
        }
    }

    /** {@code REPLICAOF NO ONE}: a replica promoted to primary, as a failover does. */
    void promote() {
        try (Jedis j = jedis()) {
            j.replicaofNoOne();
        }
    }

    /** Waits until this replica is connected to its primary and has its data. */
    void awaitReplicating() {
        await().atMost(Duration.ofSeconds(10)).until(() -> {
            try (Jedis j = jedis()) {
                String info = j.info("replication");
                return info.contains("master_link_status:up") && !info.contains("master_sync_in_progress:1");
            }
        });
    }

    /**
     * Fills the server: {@code maxmemory} a little above what it uses now, {@code noeviction}, then filler
     * values until writes are refused with {@code OOM}. Returns the maxmemory set.
     */
    long fillMemory() {
        try (Jedis j = jedis()) {
            long used = usedMemory(j);
            long max = used + 256 * 1024;
            j.configSet("maxmemory-policy", "noeviction");
            j.configSet("maxmemory", String.valueOf(max));
            String value = "x".repeat(4096);
            for (int i = 0; ; i++) {
                try {
                    j.set("filler:" + i, value);
                } catch (redis.clients.jedis.exceptions.JedisDataException e) {
                    if (e.getMessage() != null && e.getMessage().startsWith("OOM")) {
                        // full; closing connections frees their buffers, which would make room for a few
                        // more writes: hold the limit below what the data alone uses
                        max = usedMemory(j) - 64 * 1024;
                        j.configSet("maxmemory", String.valueOf(max));
                        return max;
                    }
                    throw e;
                }
            }
        }
    }

    /** Lifts the memory limit again. */
    void unlimitMemory() {
        try (Jedis j = jedis()) {
            j.configSet("maxmemory", "0");
        }
    }

    private static long usedMemory(Jedis j) {
        for (String line : j.info("memory").split("\r?\n")) {
            if (line.startsWith("used_memory:")) {
                return Long.parseLong(line.substring("used_memory:".length()).trim());
            }
        }
        throw new IllegalStateException("no used_memory in INFO memory");
    }

    /** Calls of {@code command} (lower case, e.g. "evalsha") since start or the last CONFIG RESETSTAT. */
    long calls(String command) {
        try (Jedis j = jedis()) {
            for (String line : j.info("commandstats").split("\r?\n")) {
                if (line.startsWith("cmdstat_" + command + ":")) {
                    int from = line.indexOf("calls=") + 6;
                    return Long.parseLong(line.substring(from, line.indexOf(',', from)));
                }
            }
            return 0;
        }
    }

    /** Commands our scripts run inside EVAL/EVALSHA: the server counts them in commandstats too. */
    private static final java.util.Set<String> SCRIPT_INNER = java.util.Set.of("time", "hmget", "hset", "pexpire",
            "hincrby", "hdel", "hgetall", "hexists");

    /**
     * Commands clients sent since the last CONFIG RESETSTAT (= round trips), not counting the ones our scripts
     * run inside the server, nor INFO and CONFIG RESETSTAT themselves.
     */
    long clientCalls() {
        long total = 0;
        try (Jedis j = jedis()) {
            for (String line : j.info("commandstats").split("\r?\n")) {
                int from = line.indexOf("calls=");
                if (!line.startsWith("cmdstat_") || from < 0) {
                    continue;
                }
                String command = line.substring(8, line.indexOf(':'));
                if (SCRIPT_INNER.contains(command) || command.equals("info") || command.startsWith("config")) {
                    continue;
                }
                total += Long.parseLong(line.substring(from + 6, line.indexOf(',', from)));
            }
        }
        return total;
    }

    @Override
    public void close() {
        if (process != null) {
            process.destroyForcibly();
            try {
                process.waitFor();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
        try (Stream<Path> files = Files.walk(dir)) {
            files.sorted(Comparator.reverseOrder()).map(Path::toFile).forEach(File::delete);
        } catch (IOException ignored) {
            // temp files: best effort
        }
    }
}
