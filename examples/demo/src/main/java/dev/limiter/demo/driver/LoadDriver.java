package dev.limiter.demo.driver;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.RuleSetLoader;
import java.io.PrintStream;
import java.net.http.HttpClient;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;

/**
 * The demo's load driver: runs the {@link Scenarios} against the demo service for a fixed time and prints, every
 * two seconds, the per-rule counters read over JMX from the service's pid, then a summary.
 *
 * <p>{@code --port P --pid PID [--rules examples/rules.yml] [--seconds 24] [--redraw true]}; with
 * {@code --redraw} (the launcher passes it on a wide enough terminal) each table replaces the previous one.
 * The driver is a separate JVM without the agent: it only sends HTTP and reads MBeans, as an operator would. When the service has no limiter
 * MBeans (an agent without JMX, or attach refused), the table falls back to what the driver observed itself
 * and its title says so.
 */
public final class LoadDriver {

    private static final long REFRESH_NANOS = TimeUnit.SECONDS.toNanos(2);
    private static final String CLEAR_BELOW = "\033[J";

    private final PrintStream out;
    private final boolean redraw;
    private int drawnLines;

    private LoadDriver(PrintStream out, boolean redraw) {
        this.out = out;
        this.redraw = redraw;
    }

    public static void main(String[] args) throws Exception {
        int port = 0;
        long pid = -1;
        Path rulesFile = Path.of("examples/rules.yml");
        int seconds = 24;
        boolean redraw = false;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--port" -> port = Integer.parseInt(args[i + 1]);
                case "--pid" -> pid = Long.parseLong(args[i + 1]);
                case "--rules" -> rulesFile = Path.of(args[i + 1]);
                case "--seconds" -> seconds = Integer.parseInt(args[i + 1]);
                case "--redraw" -> redraw = Boolean.parseBoolean(args[i + 1]);
                default -> throw new IllegalArgumentException("unknown option " + args[i]
                        + " (known: --port, --pid, --rules, --seconds, --redraw)");
            }
        }
        if (port <= 0) {
            throw new IllegalArgumentException("--port is required");
        }
        new LoadDriver(System.out, redraw).run(port, pid, RuleSetLoader.load(rulesFile, RuleSet.empty()), seconds);
    }

    private void run(int port, long pid, RuleSet rules, int seconds) throws Exception {
        JmxRules jmx = null;
        String noJmx = null;
        if (pid > 0) {
            try {
                jmx = JmxRules.attach(pid);
            } catch (Exception | LinkageError e) {
                noJmx = "cannot attach to pid " + pid + ": " + e;
            }
        } else {
            noJmx = "no --pid given";
        }
        List<Scenario> scenarios = Scenarios.all();
        List<Tally> tallies = new ArrayList<>();
        ObservedRules observed = new ObservedRules(rules);
        int threads = 0;
        for (Scenario scenario : scenarios) {
            tallies.add(new Tally(scenario));
            threads += scenario.threads();
        }
        ExecutorService pool = Executors.newFixedThreadPool(threads, runnable -> {
            Thread thread = new Thread(runnable, "demo-client");
            thread.setDaemon(true);
            return thread;
        });
        HttpClient http = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
                .connectTimeout(Duration.ofSeconds(5)).build();
        String base = "http://127.0.0.1:" + port;
        long start = System.nanoTime();
        long deadline = start + TimeUnit.SECONDS.toNanos(seconds);
        for (Tally tally : tallies) {
            for (int i = 0; i < tally.scenario.threads(); i++) {
                long offset = ThreadLocalRandom.current().nextLong(TimeUnit.MILLISECONDS.toNanos(200));
                pool.execute(new ClientLoop(http, base, tally, observed, deadline, offset));
            }
        }
        pool.shutdown();
        List<RuleRow> rows = List.of();
        try {
            for (long next = start + REFRESH_NANOS; ; next = Math.max(next + REFRESH_NANOS,
                    System.nanoTime() + REFRESH_NANOS / 2)) {
                boolean done = pool.awaitTermination(Math.max(0, next - System.nanoTime()), TimeUnit.NANOSECONDS);
                if (!done && next >= deadline) {
                    // traffic is over: wait for the last answers, then draw the final table once
                    done = pool.awaitTermination(15, TimeUnit.SECONDS);
                }
                if (jmx != null) {
                    try {
                        rows = jmx.read();
                    } catch (Exception e) {
                        noJmx = "reading the MBeans failed: " + e;
                        jmx.close();
                        jmx = null;
                    }
                }
                draw(rules, rows, observed, tallies, jmx, noJmx, pid, (System.nanoTime() - start) / 1e9, seconds);
                if (done) {
                    break;
                }
                if (next >= deadline) {
                    out.println("some requests did not finish in time; giving up on them");
                    break;
                }
            }
            for (String line : Summary.lines(tallies, seconds, rules, rows.isEmpty() ? null : rows, pid)) {
                out.println(line);
            }
        } finally {
            if (jmx != null) {
                jmx.close();
            }
            pool.shutdownNow();
        }
    }

    private void draw(RuleSet rules, List<RuleRow> rows, ObservedRules observed, List<Tally> tallies,
            JmxRules jmx, String noJmx, long pid, double elapsed, int seconds) {
        List<String> lines = new ArrayList<>();
        long sent = 0;
        long ok = 0;
        long limited = 0;
        long failed = 0;
        for (Tally tally : tallies) {
            sent += tally.sent.sum();
            ok += tally.ok.sum();
            limited += tally.limited.sum();
            failed += tally.failed.sum();
        }
        lines.add(String.format(Locale.ROOT, "t=%2.0fs of %ds   sent %,d   2xx %,d   429 %,d   failed %,d",
                Math.min(elapsed, seconds), seconds, sent, ok, limited, failed));
        TextTable table;
        if (!rows.isEmpty()) {
            String limiter = jmx == null ? "" : jmx.limiterLine();
            lines.add("per-rule counters over JMX from pid " + pid + " (dev.limiter:type=Rule,name=<id>)"
                    + (limiter.isEmpty() ? "" : "   " + limiter));
            table = RuleTable.fromJmx(rules, rows);
        } else {
            lines.add("per-rule counts as the driver observed them: no limiter MBeans"
                    + (noJmx != null ? " (" + noJmx + ")" : " in pid " + pid + (elapsed < 5 ? " (yet)"
                            : " (JMX off? see docs/jmx.md)")));
            table = RuleTable.fromObservations(rules, observed);
        }
        lines.addAll(table.lines());
        if (!rows.isEmpty()) {
            lines.addAll(RuleTable.annotationLines(rules, rows));
        }
        lines.add("");
        if (redraw && drawnLines > 0) {
            out.print("\033[" + drawnLines + "F" + CLEAR_BELOW);
        }
        for (String line : lines) {
            out.println(line);
        }
        out.flush();
        drawnLines = lines.size();
    }
}
