package dev.limiter.agent.store;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

/** A private {@code redis-server} on a free port (never the system one), no persistence, extra options given. */
final class TestRedis implements AutoCloseable {

    private final int port;
    private final Process process;

    private TestRedis(int port, Process process) {
        this.port = port;
        this.process = process;
    }

    static TestRedis start(String... extraArgs) {
        try {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            Path dir = Files.createTempDirectory("limiter-agent-redis-");
            List<String> command = new ArrayList<>(List.of("redis-server", "--port", String.valueOf(port), "--bind",
                    "127.0.0.1", "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--loglevel",
                    "warning"));
            command.addAll(List.of(extraArgs));
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(dir.resolve("redis.log").toFile()).start();
            TestRedis redis = new TestRedis(port, process);
            await().atMost(Duration.ofSeconds(10)).ignoreExceptions().until(() -> {
                try (Jedis jedis = new Jedis("127.0.0.1", port, 2000)) {
                    return "PONG".equals(jedis.ping());
                } catch (JedisDataException e) {
                    return e.getMessage() != null && e.getMessage().startsWith("NOAUTH"); // --requirepass: up
                }
            });
            return redis;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    String uri() {
        return "redis://127.0.0.1:" + port;
    }

    /** The URI with {@code userInfo} ({@code user:password} or {@code :password}) before the host. */
    String uri(String userInfo) {
        return "redis://" + userInfo + "@127.0.0.1:" + port;
    }

    @Override
    public void close() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }
}
