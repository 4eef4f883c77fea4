package dev.limiter.bench.overload;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** An {@link OverloadServer} in its own JVM, for one {@link Contender}; its output goes to a log file. */
final class ForkedServer implements AutoCloseable {

    private final Process process;
    final int port;
    final Path log;

    private ForkedServer(Process process, int port, Path log) {
        this.process = process;
        this.port = port;
        this.log = log;
    }

    /**
     * Starts the server with {@code contender}'s protection and waits (up to a minute) for it to listen.
     * {@code metricsPort}: where the agent serves Prometheus metrics (only with the agent).
     */
    static ForkedServer start(OverloadSettings settings, Contender contender, Path dir, int metricsPort)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of(settings.java(), "-Xmx512m"));
        if (contender.usesAgent()) {
            Path rules = dir.resolve("rules.yml");
            Files.writeString(rules, contender.rules());
            command.add("-javaagent:" + settings.agentJar() + "=rules=" + rules + ",prometheus=127.0.0.1:"
                    + metricsPort);
        }
        command.addAll(List.of("-cp", settings.serverClasspath(), OverloadServer.class.getName(),
                Integer.toString(settings.pool()), Long.toString(settings.workMillis()),
                contender.netflix() ? "netflix" : "none"));
        Path log = dir.resolve("server.log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8));
        List<String> seen = new ArrayList<>();
        long deadline = System.nanoTime() + TimeUnit.MINUTES.toNanos(1);
        String line;
        while ((line = out.readLine()) != null && System.nanoTime() < deadline) {
            seen.add(line);
            if (line.startsWith("LISTENING ")) {
                int port = Integer.parseInt(line.substring("LISTENING ".length()).trim());
                Thread drain = new Thread(() -> drain(out, log, seen), "server-log");
                drain.setDaemon(true);
                drain.start();
                return new ForkedServer(process, port, log);
            }
        }
        process.destroyForcibly();
        throw new IllegalStateException(contender.name() + ": the server did not start:\n" + String.join("\n", seen));
    }

    private static void drain(BufferedReader out, Path log, List<String> seen) {
        try (var writer = Files.newBufferedWriter(log)) {
            for (String line : seen) {
                writer.write(line);
                writer.newLine();
            }
            String line;
            while ((line = out.readLine()) != null) {
                writer.write(line);
                writer.newLine();
            }
        } catch (IOException ignored) {
            // the server ended
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor();
        }
    }
}
