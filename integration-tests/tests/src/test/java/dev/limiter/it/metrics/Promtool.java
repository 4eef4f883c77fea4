package dev.limiter.it.metrics;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;

/**
 * Prometheus' own parsers, through {@code promtool} (Debian package {@code prometheus}, installed by
 * {@code scripts/lib/prerequisites.sh}): {@code check metrics} parses and lints the text format 0.0.4;
 * {@code tsdb create-blocks-from openmetrics} parses OpenMetrics into a Prometheus TSDB block and
 * {@code tsdb dump} reads the samples back, so the values the tests compare are the values Prometheus stored.
 *
 * <p>Missing promtool fails the test with how to install it: a skipped check would pass CI silently.
 */
final class Promtool {

    /** The samples' timestamp for the backfill (the endpoint sends none; the OpenMetrics backfill needs one). */
    private static final String TIMESTAMP = "1700000000";

    private Promtool() {
    }

    static Path binary() {
        for (String dir : System.getenv().getOrDefault("PATH", "/usr/bin").split(":")) {
            Path candidate = Path.of(dir, "promtool");
            if (Files.isExecutable(candidate)) {
                return candidate;
            }
        }
        throw new AssertionError("promtool is missing: install Debian's 'prometheus' package"
                + " (scripts/lib/prerequisites.sh does, as ./scripts/test runs it)");
    }

    /** {@code promtool check metrics} on {@code text}: its exit code and output. */
    static Result checkMetrics(String text) {
        return run(text, List.of(binary().toString(), "check", "metrics"));
    }

    /**
     * Parses {@code openMetrics} with Prometheus' OpenMetrics parser and returns every stored sample as
     * {@code name{label="value",...}} (labels sorted by name, as Prometheus sorts them) to its value. Fails with
     * promtool's message if the text does not parse (e.g. no {@code # EOF}).
     */
    static Map<String, Double> parseOpenMetrics(String openMetrics, Path dir) {
        StringBuilder stamped = new StringBuilder();
        for (String line : openMetrics.split("\n", -1)) {
            if (!line.isEmpty() && !line.startsWith("#")) {
                line = line + " " + TIMESTAMP;
            }
            stamped.append(line).append('\n');
        }
        try {
            Path input = dir.resolve("scrape.om");
            Path db = dir.resolve("tsdb");
            Files.writeString(input, stamped.toString().replaceAll("\n+$", "\n"));
            Result created = run("", List.of(binary().toString(), "tsdb", "create-blocks-from", "openmetrics",
                    input.toString(), db.toString()));
            assertThat(created.exit()).as("promtool parses the OpenMetrics text:\n" + created.output()).isZero();
            Files.createDirectories(db.resolve("wal")); // dump opens the head's WAL even when there is none
            Result dump = run("", List.of(binary().toString(), "tsdb", "dump", db.toString()));
            assertThat(dump.exit()).as(dump.output()).isZero();
            Map<String, Double> samples = new TreeMap<>();
            for (String line : dump.output().split("\n")) {
                if (line.startsWith("{__name__=")) {
                    samples.put(series(line), value(line));
                }
            }
            return samples;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** {@code {__name__="n", a="1", b="2"} 3 1700000000000} -> {@code n{a="1",b="2"}}. */
    private static String series(String line) {
        int close = line.lastIndexOf('}');
        String inside = line.substring(1, close);
        int nameEnd = inside.indexOf('"', "__name__=\"".length());
        String name = inside.substring("__name__=\"".length(), nameEnd);
        String labels = inside.substring(nameEnd + 1).replaceFirst("^, ", "").replace("\", ", "\",");
        return labels.isEmpty() ? name : name + "{" + labels + "}";
    }

    private static double value(String line) {
        String[] parts = line.substring(line.lastIndexOf('}') + 2).split(" ");
        return Double.parseDouble(parts[0]);
    }

    private static Result run(String stdin, List<String> command) {
        try {
            Process process = new ProcessBuilder(new ArrayList<>(command)).redirectErrorStream(true).start();
            process.getOutputStream().write(stdin.getBytes(StandardCharsets.UTF_8));
            process.getOutputStream().close();
            String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!process.waitFor(60, TimeUnit.SECONDS)) {
                process.destroyForcibly();
                throw new AssertionError("promtool did not finish: " + command);
            }
            return new Result(process.exitValue(), output);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new AssertionError(e);
        }
    }

    record Result(int exit, String output) {
    }
}
