package dev.limiter.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** {@code jcmd} of the JDK the forked servers run on (17, or 25 with {@code -Dlimiter.test.jvm}). */
final class Jcmd {

    private Jcmd() {
    }

    static Path binary() {
        String jvm = System.getProperty("limiter.test.jvm", "");
        Path java = jvm.isBlank() ? Path.of(System.getProperty("java.home"), "bin", "java") : Path.of(jvm);
        return java.resolveSibling("jcmd");
    }

    /** Runs {@code jcmd pid command...}; fails with its output unless it exits 0. Returns the output. */
    static String run(long pid, String... command) {
        List<String> line = new ArrayList<>(List.of(binary().toString(), Long.toString(pid)));
        line.addAll(List.of(command));
        try {
            Process process = new ProcessBuilder(line).redirectErrorStream(true).start();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("jcmd did not finish: " + line);
            }
            assertThat(process.exitValue()).as(String.join(" ", line) + ":\n" + output).isZero();
            return output;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }
}
