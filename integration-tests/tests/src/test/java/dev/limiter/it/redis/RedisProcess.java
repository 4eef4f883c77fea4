package dev.limiter.it.redis;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A private {@code redis-server} on a free port for the forked-JVM tests: killed with SIGKILL and restarted on
 * the same port (empty, as after a crash without persistence). Talks RESP over a plain socket, because the
 * tests module has no Redis client (the agent's Jedis is shaded inside the agent jar).
 */
public final class RedisProcess implements AutoCloseable {

    private final int port;
    private final Path dir;
    private Process process;

    private RedisProcess(int port, Path dir) {
        this.port = port;
        this.dir = dir;
    }

    public static RedisProcess start() {
        try {
            int port;
            try (ServerSocket socket = new ServerSocket(0)) {
                port = socket.getLocalPort();
            }
            RedisProcess redis = new RedisProcess(port, Files.createTempDirectory("limiter-it-redis-"));
            redis.launch();
            return redis;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    public String uri() {
        return "redis://127.0.0.1:" + port;
    }

    void launch() throws IOException {
        process = new ProcessBuilder("redis-server", "--port", String.valueOf(port), "--bind", "127.0.0.1",
                "--save", "", "--appendonly", "no", "--dir", dir.toString(), "--loglevel", "warning")
                .redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(dir.resolve("redis.log").toFile()))
                .start();
        await("redis-server on " + port).atMost(Duration.ofSeconds(20)).ignoreExceptions()
                .until(() -> "+PONG".equals(command("PING")));
    }

    /** SIGKILL: gone with its data. */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** One command, its first reply line (e.g. {@code +PONG}, {@code :1}). */
    String command(String... args) throws IOException {
        return send(args, false);
    }

    /** One command with a bulk-string reply ({@code GET}, {@code HGET}): the value, or null if none. */
    String bulk(String... args) throws IOException {
        return send(args, true);
    }

    private String send(String[] args, boolean bulk) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress("127.0.0.1", port), 2000);
            socket.setSoTimeout(2000);
            StringBuilder request = new StringBuilder("*").append(args.length).append("\r\n");
            for (String arg : args) {
                request.append('$').append(arg.getBytes(StandardCharsets.UTF_8).length).append("\r\n").append(arg)
                        .append("\r\n");
            }
            OutputStream out = socket.getOutputStream();
            out.write(request.toString().getBytes(StandardCharsets.UTF_8));
            out.flush();
            InputStream in = socket.getInputStream();
            StringBuilder line = new StringBuilder();
            for (int c = in.read(); c != '\r' && c != -1; c = in.read()) {
                line.append((char) c);
            }
            if (!bulk || line.charAt(0) != '$') {
                return line.toString();
            }
            int length = Integer.parseInt(line.substring(1));
            if (length < 0) {
                return null;
            }
            in.read(); // the '\n' after the length
            byte[] value = in.readNBytes(length);
            return new String(value, StandardCharsets.UTF_8);
        }
    }

    @Override
    public void close() throws InterruptedException {
        if (process != null) {
            kill();
        }
    }
}
