package dev.limiter.bench;

import dev.limiter.agent.jfr.FlightEvents;
import dev.limiter.agent.jfr.FlightRecorderSupport;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.reload.RuleSetHolder;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import jdk.jfr.Recording;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * What the JFR {@code dev.limiter.Rejection} hook costs on the rejected path: a rule's spent key checked and
 * counted as the decision loop's {@code Verdict} does, without the hook ({@code no-hook}), with it and no
 * recording ({@code hook-disabled}: the case every production JVM is in), and with a recording that enables the
 * event ({@code hook-recording}: the event is built, the limiter peeked for the retry-after, and committed).
 * Read {@code hook-disabled / no-hook}: the claim is that it is ~1.
 */
@State(Scope.Benchmark)
public class RejectedPathJfrBenchmark extends BenchmarkDefaults {

    private static final String KEY = "10.1.2.3";

    @Param({"no-hook", "hook-disabled", "hook-recording"})
    public String variant;

    private Path dir;
    private RuleSetHolder holder;
    private Rule rule;
    private KeyedLimiter limiter;
    private boolean hook;
    private Recording recording;

    @Setup(Level.Trial)
    public void setUp() throws IOException {
        if (!FlightRecorderSupport.AVAILABLE) {
            throw new IllegalStateException("this JVM has no jdk.jfr");
        }
        dir = Files.createTempDirectory("limiter-bench-jfr");
        Path file = dir.resolve("rules.yml");
        Files.writeString(file, """
                version: 1
                reload: { watch: false }
                rules:
                  - id: spent
                    match: { http: { path: /api/* } }
                    key: ip
                    limit: 1
                    window: 1h
                """);
        holder = RuleSetHolder.open(file);
        if (holder.lastError() != null) {
            throw new IllegalStateException(holder.lastError());
        }
        rule = holder.current().rule("spent");
        limiter = rule.limiter();
        OurLimiters.requireAllowed(limiter.tryAcquire(KEY, new long[4]), "spent");
        hook = !variant.equals("no-hook");
        if (variant.equals("hook-recording")) {
            recording = new Recording();
            recording.enable("dev.limiter.Rejection");
            recording.setToDisk(true);
            recording.setDestination(dir.resolve("bench.jfr"));
            recording.start();
        }
    }

    @TearDown(Level.Trial)
    public void tearDown() throws IOException {
        if (recording != null) {
            recording.stop();
            recording.close();
        }
        holder.close();
        try (var files = Files.list(dir)) {
            for (Path each : (Iterable<Path>) files::iterator) {
                Files.deleteIfExists(each);
            }
        }
        Files.deleteIfExists(dir);
    }

    /** The rejected half of {@code Verdict.count}: the check, the counter, then the hook when there is one. */
    @Benchmark
    public boolean rejected(CallerThread thread) {
        boolean admitted = limiter.tryAcquire(KEY, thread.out);
        if (!admitted) {
            rule.stats().rejected().increment();
            if (hook && FlightRecorderSupport.AVAILABLE) {
                FlightEvents.rejected(rule, true, KEY, thread.out[Outcome.RETRY_AFTER_MILLIS]);
            }
        }
        return thread.expectRejected(admitted);
    }
}
