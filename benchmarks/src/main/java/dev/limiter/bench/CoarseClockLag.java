package dev.limiter.bench;

import dev.limiter.core.clock.CoarseClock;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;

/**
 * How far {@link CoarseClock} lags {@link System#currentTimeMillis()}: the accuracy a limiter pays for reading
 * a field instead of the system clock. A JMH-free main because the answer is a distribution over seconds of wall
 * time, not a per-call cost.
 *
 * <p>A reader thread plays a request thread: every {@value #PERIOD_MICROS} µs it reads the coarse clock, then the
 * system clock, and records the difference in milliseconds (the system read comes second, so a sample can only
 * overstate the lag, by the ~30 ns of the read). It also records the longest stretch of wall time during which
 * the coarse value did not move while the system clock did: the timer thread held off the CPU. With
 * {@code busy}, {@code 2 x cores} threads spin on arithmetic in the same JVM for the whole run, so the timer
 * thread competes for the CPU the way it does in a saturated service.
 *
 * <p>Usage: {@code java -cp benchmarks.jar dev.limiter.bench.CoarseClockLag idle|busy [seconds] [out.tsv]}.
 * Prints the load average before and after, the sample count, p50 / p99 / p99.9 / max lag and the longest stall.
 */
public final class CoarseClockLag {

    static final long PERIOD_MICROS = 100;

    private CoarseClockLag() {
    }

    public static void main(String[] args) throws Exception {
        boolean busy = args.length > 0 && args[0].equals("busy");
        if (args.length == 0 || !(busy || args[0].equals("idle"))) {
            System.err.println("usage: CoarseClockLag idle|busy [seconds] [out.tsv]");
            System.exit(2);
        }
        int seconds = args.length > 1 ? Integer.parseInt(args[1]) : 10;
        String loadBefore = loadAverage();
        List<Thread> spinners = busy ? spin(2 * Runtime.getRuntime().availableProcessors()) : List.of();
        Result result = sample(CoarseClock.shared(), seconds * 1_000_000_000L);
        spinners.forEach(Thread::interrupt);
        String report = result.report(busy ? "busy" : "idle", loadBefore, loadAverage());
        System.out.println(report);
        if (args.length > 2) {
            Files.writeString(Path.of(args[2]), report + System.lineSeparator());
        }
    }

    /** Lags in ms, sorted, and the longest stall of the coarse value, in ms. */
    record Result(long[] lags, double longestStallMillis) {

        long percentile(double p) {
            // nearest rank; the epsilon keeps 99.9 % of 1000 at rank 999 despite binary floating point
            int index = (int) Math.ceil(p * lags.length / 100.0 - 1e-9) - 1;
            return lags[Math.max(0, Math.min(lags.length - 1, index))];
        }

        String report(String mode, String loadBefore, String loadAfter) {
            long late = Arrays.stream(lags).filter(lag -> lag >= 2).count();
            return String.format(Locale.ROOT, "mode\t%s%nload average before\t%s%nload average after\t%s%n"
                            + "samples\t%d%nlag p50 ms\t%d%nlag p99 ms\t%d%nlag p99.9 ms\t%d%nlag max ms\t%d%n"
                            + "samples lagging >= 2 ms\t%.3f %%%nlongest stall ms\t%.1f",
                    mode, loadBefore, loadAfter, lags.length, percentile(50), percentile(99), percentile(99.9),
                    lags[lags.length - 1], 100.0 * late / lags.length, longestStallMillis);
        }
    }

    static Result sample(CoarseClock clock, long durationNanos) {
        long[] lags = new long[(int) Math.min(Integer.MAX_VALUE - 8, durationNanos / (PERIOD_MICROS * 1000) + 16)];
        int n = 0;
        long start = System.nanoTime();
        long lastValue = clock.millis();
        long lastChangeNanos = start;
        long longestStall = 0;
        for (long now = start; now - start < durationNanos && n < lags.length; now = System.nanoTime()) {
            long coarse = clock.millis();
            long system = System.currentTimeMillis();
            lags[n++] = system - coarse;
            long t = System.nanoTime();
            if (coarse != lastValue) {
                lastValue = coarse;
                lastChangeNanos = t;
            } else if (system != coarse) {
                longestStall = Math.max(longestStall, t - lastChangeNanos);
            }
            LockSupport.parkNanos(PERIOD_MICROS * 1000);
        }
        long[] sorted = Arrays.copyOf(lags, n);
        Arrays.sort(sorted);
        return new Result(sorted, longestStall / 1e6);
    }

    private static List<Thread> spin(int threads) {
        List<Thread> started = new ArrayList<>();
        for (int i = 0; i < threads; i++) {
            Thread t = new Thread(() -> {
                long x = 1;
                while (!Thread.currentThread().isInterrupted()) {
                    for (int j = 0; j < 1_000_000; j++) {
                        x = x * 6364136223846793005L + 1442695040888963407L;
                    }
                    if (x == 42) {
                        System.out.print(""); // keeps the loop from being removed
                    }
                }
            }, "busy-" + i);
            t.setDaemon(true);
            t.start();
            started.add(t);
        }
        return started;
    }

    private static String loadAverage() {
        try {
            return Files.readString(Path.of("/proc/loadavg")).trim();
        } catch (IOException | RuntimeException e) {
            return "n/a (" + e + ")";
        }
    }
}
