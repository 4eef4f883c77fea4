package dev.limiter.it.harness;

import static org.awaitility.Awaitility.await;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One test server in its own JVM ({@code limiter.test.jvm}, so the Java 25 pass forks Java 25 servers), with
 * stdout and stderr merged into a log file under {@code target/it-logs}. Start-up is the expensive part, so a
 * test class shares one server across its scenarios. Every process is killed on {@link #close()} and, as a
 * last resort, by a shutdown hook: a leaked server would hold a port and a core of a shared 2-core machine.
 *
 * <p>Each launch writes a new log file (a new inode, even under the same name) and reads it back through a
 * channel opened on that inode. Two test runs in the same working tree (several engineers, one tree) then never
 * read each other's {@code LISTENING} line: a later run replacing {@code Foo-server.log} does not touch the file an
 * earlier run's server is writing and reading.
 */
public final class ForkedServer implements AutoCloseable {

    /** Generous: a cold JVM with an agent on a loaded 2-core machine (measured: up to ~110 s at load 30). */
    public static final Duration START_TIMEOUT = Duration.ofSeconds(180);

    /**
     * How many servers may be starting at once ({@code limiter.it.parallel.starts}, default 2). Start-up is
     * CPU-bound (class loading, weaving); five JVMs starting together on 2 cores all time out together, while
     * taking turns costs no more in total.
     */
    private static final Semaphore STARTING = new Semaphore(Integer.getInteger("limiter.it.parallel.starts", 2));

    private static final Pattern LISTENING = Pattern.compile("(?m)^LISTENING (\\d+)\\s*$");
    private static final Set<Process> LIVE = ConcurrentHashMap.newKeySet();

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(() -> LIVE.forEach(Process::destroyForcibly)));
    }

    private final String name;
    private final Process process;
    private final Path log;
    /**
     * This launch's log, read through the inode it was created with (see the class comment). Never closed:
     * {@link #output()} must work after {@link #close()} (failure reports, exit checks), and a test JVM opens a
     * few dozen of these at most.
     */
    private final FileChannel output;
    private final long launchedNanos = System.nanoTime();
    private volatile int port = -1;
    private volatile HttpApi http;

    private ForkedServer(String name, Process process, Path log, FileChannel output) {
        this.name = name;
        this.process = process;
        this.log = log;
        this.output = output;
    }

    /**
     * Forks {@code java <jvmOptions> -cp <app> <Main> 0} (or {@code -jar <app> 0}, see
     * {@link TestApp#launchArguments()}); does not wait (see {@link #awaitListening()}).
     *
     * @param name names the log file, e.g. {@code Tomcat11JakartaLimiterTest-server}
     */
    public static ForkedServer launch(TestApp app, String name, List<String> jvmOptions) {
        return launch(app, name, jvmOptions, Map.of());
    }

    /**
     * Like {@link #launch(TestApp, String, List)}, with {@code environment} added to (or replacing entries of) the
     * environment the JVM inherits from the tests, e.g. {@code JAVA_TOOL_OPTIONS} as a container image sets it.
     * The log's first line names the added variables before the command.
     */
    public static ForkedServer launch(TestApp app, String name, List<String> jvmOptions,
            Map<String, String> environment) {
        List<String> command = new ArrayList<>();
        command.add(Locations.java().toString());
        command.add("-Xmx256m");
        command.add("-XX:+UseSerialGC");
        command.add("-XX:TieredStopAtLevel=1");
        command.addAll(jvmOptions);
        command.addAll(app.launchArguments());
        command.add("0");
        try {
            Files.createDirectories(Locations.logs());
            Path log = Locations.logs().resolve(name + ".log");
            // a new inode: another run may still be writing the old one
            Files.deleteIfExists(log);
            StringBuilder header = new StringBuilder("$ ");
            environment.forEach((variable, value) -> header.append(variable).append("='").append(value).append("' "));
            Files.writeString(log, header + String.join(" ", command) + System.lineSeparator(),
                    StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
            FileChannel output = FileChannel.open(log, StandardOpenOption.READ);
            ProcessBuilder builder = new ProcessBuilder(command)
                    .redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile()));
            builder.environment().putAll(environment);
            Process process = builder.start();
            LIVE.add(process);
            return new ForkedServer(name, process, log, output);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot fork " + command, e);
        }
    }

    /** Launches and waits for {@code LISTENING <port>}, taking turns with other start-ups (see STARTING). */
    public static ForkedServer start(TestApp app, String name, List<String> jvmOptions) {
        return start(app, name, jvmOptions, Map.of());
    }

    /**
     * Like {@link #start(TestApp, String, List)}, with environment variables (see
     * {@link #launch(TestApp, String, List, Map)}).
     */
    public static ForkedServer start(TestApp app, String name, List<String> jvmOptions,
            Map<String, String> environment) {
        acquireStartTurn(name);
        try {
            ForkedServer server = launch(app, name, jvmOptions, environment);
            try {
                return server.awaitListening();
            } catch (RuntimeException | AssertionError e) {
                server.close();
                throw e;
            }
        } finally {
            STARTING.release();
        }
    }

    private static void acquireStartTurn(String name) {
        try {
            if (!STARTING.tryAcquire(10, TimeUnit.MINUTES)) {
                throw new AssertionError(name + ": no start-up turn within 10 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(name + ": interrupted waiting for a start-up turn", e);
        }
    }

    /** Waits for the {@code LISTENING} line; fails with the output if the JVM exits or the time runs out. */
    public ForkedServer awaitListening() {
        try {
            await("LISTENING from " + name).atMost(START_TIMEOUT).pollInterval(Duration.ofMillis(100))
                    .until(() -> LISTENING.matcher(output()).find() || !process.isAlive());
        } catch (AssertionError e) {
            throw new AssertionError(name + " did not print LISTENING within " + START_TIMEOUT + "\n" + tail(80), e);
        }
        Matcher matcher = LISTENING.matcher(output());
        if (!matcher.find()) {
            throw new AssertionError(name + " exited (" + exitValueOrAlive() + ") before LISTENING\n" + tail(80));
        }
        port = Integer.parseInt(matcher.group(1));
        http = new HttpApi(port);
        long millis = (System.nanoTime() - launchedNanos) / 1_000_000;
        System.out.printf("%s: LISTENING %d after %d ms%n", name, port, millis);
        return this;
    }

    public String name() {
        return name;
    }

    public int port() {
        if (port < 0) {
            throw new IllegalStateException(name + " is not listening");
        }
        return port;
    }

    public HttpApi http() {
        port();
        return http;
    }

    public Path log() {
        return log;
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** Everything the server printed so far (stdout and stderr, merged). */
    public String output() {
        try {
            // positional reads: no shared channel position, safe from several threads
            long size = output.size();
            ByteBuffer bytes = ByteBuffer.allocate(Math.toIntExact(size));
            while (bytes.hasRemaining() && output.read(bytes, bytes.position()) >= 0) {
                // until size bytes are in (the file only grows)
            }
            return new String(bytes.array(), 0, bytes.position(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The last {@code lines} lines of output, for failure messages. */
    public String tail(int lines) {
        String[] all = output().split("\\R");
        int from = Math.max(0, all.length - lines);
        StringBuilder text = new StringBuilder("---- " + log + " (last " + (all.length - from) + " lines)\n");
        for (int i = from; i < all.length; i++) {
            text.append(all[i]).append('\n');
        }
        return text.append("---- end of ").append(name).toString();
    }

    /** Waits until the output contains a match of {@code regex}; returns the match. */
    public String awaitOutput(String regex, Duration timeout) {
        Pattern pattern = Pattern.compile(regex);
        try {
            await(name + " prints /" + regex + "/").atMost(timeout).pollInterval(Duration.ofMillis(200))
                    .until(() -> pattern.matcher(output()).find());
        } catch (AssertionError e) {
            throw new AssertionError(e.getMessage() + "\n" + tail(60), e);
        }
        Matcher matcher = pattern.matcher(output());
        matcher.find();
        return matcher.group();
    }

    /** Waits for the JVM to exit by itself and returns its exit code. */
    public int awaitExit(Duration timeout) {
        try {
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError(name + " still running after " + timeout + "\n" + tail(60));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
        LIVE.remove(process);
        return process.exitValue();
    }

    private String exitValueOrAlive() {
        return process.isAlive() ? "alive" : "exit " + process.exitValue();
    }

    /** Terminates the JVM (then forcibly); safe to call more than once. */
    @Override
    public void close() {
        try {
            process.destroy();
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        } finally {
            LIVE.remove(process);
        }
    }

    @Override
    public String toString() {
        return name + (port < 0 ? "" : " on port " + port);
    }
}
