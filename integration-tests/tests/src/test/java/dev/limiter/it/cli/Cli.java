package dev.limiter.it.cli;

import dev.limiter.it.harness.Agent;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * {@code java -jar limiter.jar ARGS} in its own JVM, as an operator runs it: the built agent jar, on the JVM the
 * pass tests ({@code limiter.test.jvm}, so the Java 25 pass runs the command line on 25 too), stdout and stderr
 * kept apart, with the exit code.
 */
final class Cli {

    /** Generous: a cold JVM on a loaded 2-core machine, and an attach to a process that does not answer (~10 s). */
    private static final long TIMEOUT_SECONDS = 120;

    private Cli() {
    }

    /** What one run printed and how it exited. */
    record Run(int exit, String out, String err) {

        @Override
        public String toString() {
            return "exit " + exit + "\n--- stdout\n" + out + "--- stderr\n" + err + "---";
        }
    }

    static Path java() {
        String jvm = System.getProperty("limiter.test.jvm", "");
        return jvm.isBlank() ? Path.of(System.getProperty("java.home"), "bin", "java") : Path.of(jvm);
    }

    static List<String> command(String... args) {
        List<String> command = new ArrayList<>();
        command.add(java().toString());
        command.add("-jar");
        command.add(Agent.jar().toString());
        command.addAll(List.of(args));
        return command;
    }

    static Run run(String... args) {
        return run(command(args));
    }

    static Run run(List<String> command) {
        return run(command, Map.of());
    }

    /** {@code environment}: added to the variables this JVM has, e.g. a password the command reads. */
    static Run run(List<String> command, Map<String, String> environment) {
        try {
            ProcessBuilder builder = new ProcessBuilder(command);
            builder.environment().putAll(environment);
            Process process = builder.start();
            process.getOutputStream().close();
            ByteArrayOutputStream err = new ByteArrayOutputStream();
            Thread errReader = new Thread(() -> copy(process.getErrorStream(), err), "cli-stderr");
            errReader.start();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            copy(process.getInputStream(), out);
            if (!process.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError(command + " still running after " + TIMEOUT_SECONDS + " s");
            }
            errReader.join();
            return new Run(process.exitValue(), out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(String.valueOf(command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError("interrupted", e);
        }
    }

    private static void copy(InputStream in, ByteArrayOutputStream out) {
        try (in) {
            in.transferTo(out);
        } catch (IOException e) {
            // the process was killed: keep what arrived
        }
    }
}
