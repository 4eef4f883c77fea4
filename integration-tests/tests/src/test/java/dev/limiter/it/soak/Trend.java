package dev.limiter.it.soak;

import dev.limiter.it.soak.SoakTest.Sample;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

/**
 * How one resource of the server moved over the soak: the least-squares slope of its samples after warm-up, and
 * the slope it may not exceed.
 *
 * <p>The bound is {@code leak + noise x S}, where {@code leak} is the growth per minute the soak tolerates in the
 * long run and {@code S = sum|t - mean t| / sum (t - mean t)^2} over the fitted samples' times (in minutes).
 * {@code noise x S} is the steepest slope a least-squares fit can get from samples that each lie within
 * {@code +-noise} of a flat line (the worst case puts every sample at {@code +noise} on one side of the mean time
 * and {@code -noise} on the other). So samples that wander within {@code noise} never fail the soak, at any
 * length, and the bound tightens towards {@code leak} as the run grows: over the build's 60 s run (9 samples in
 * 40 s) {@code S} is 4.0 per minute, over 20 minutes (161 samples in 13.3 min) 0.23.
 *
 * <p>{@code noise} is each resource's own jitter in a sample, measured on the soak (see {@link #BOUNDS}). With
 * evenly spaced samples {@code S} is about {@code 3 / window}, so a steady leak fails the soak once it adds more
 * than about {@code 3 x noise} over the fitted window on top of what {@code leak} tolerates, whatever it leaks per
 * request, per reload or per scrape.
 */
record Trend(String name, String unit, double divisor, double leakPerMinute, double noise, double first,
        double atWarmUp, double last, double slopePerMinute, double boundPerMinute, int fitted) {

    /** Per resource: what it is, how it is read from a sample, the long-run growth tolerated, the noise. */
    record Bound(String name, String unit, double divisor, ToLongFunction<Sample> value, double leakPerMinute,
            double noise) {
    }

    private static final double MIB = 1024 * 1024;
    private static final double KIB = 1024;

    /**
     * The four resources the soak holds flat, and the loaded classes, reported only (a class loaded per reload
     * would show there first; Metaspace is the asserted form of it). Each noise is about twice the largest jitter
     * seen in 60 s runs on Java 17 and 25 at load averages of 25 to 33 on the 2 cores:
     *
     * <ul>
     *   <li>heap after a full GC: 1 MiB a minute in the long run; noise 512 KiB (seen: a 10-second cycle of
     *       +-220 KiB around a flat 9-10 MiB);</li>
     *   <li>Metaspace: 256 KiB a minute; noise 128 KiB (seen: 25-30 KiB more within 40 s after warm-up, 8 to 11
     *       classes that load the first time a rarer path runs);</li>
     *   <li>live threads: 1 a minute; noise 3 (seen: none after warm-up; Tomcat's request threads and the JMX
     *       connection's threads may come and go with the load);</li>
     *   <li>open file descriptors: 1 a minute; noise 4 (seen: +-1, a client connection that Tomcat closed after
     *       its 100 requests, caught half-reopened).</li>
     * </ul>
     *
     * <p>So the build's run fails a leak of more than 3 MiB a minute of heap (one 32-byte object per request at
     * the ~2,000 requests a second a loaded machine serves; the old rules' 1,000-key table kept alive at each of
     * the 30 reloads a minute), 13 threads or 17 file descriptors a minute (one per reload, per scrape or per JMX
     * poll), and a 20-minute run any leak above about 1.1 MiB, 1.7 threads or 1.9 descriptors a minute.
     */
    static final List<Bound> BOUNDS = List.of(
            new Bound("heap used after GC", "MiB", MIB, Sample::heapAfterGc, 1.0, 0.5),
            new Bound("Metaspace used", "KiB", KIB, Sample::metaspace, 256, 128),
            new Bound("live threads", "threads", 1, Sample::threads, 1, 3),
            new Bound("open file descriptors", "FDs", 1, Sample::fds, 1, 4),
            new Bound("loaded classes (not asserted)", "classes", 1, Sample::classes, Double.NaN, Double.NaN));

    /** Each resource's trend over the samples from {@code warmUpSeconds} on. */
    static List<Trend> of(List<Sample> samples, double warmUpSeconds) {
        List<Sample> fitted = samples.stream().filter(s -> s.seconds() >= warmUpSeconds).toList();
        if (fitted.size() < 3) {
            throw new IllegalStateException("only " + fitted.size() + " samples after warm-up");
        }
        double[] minutes = fitted.stream().mapToDouble(s -> s.seconds() / 60).toArray();
        double mean = 0;
        for (double t : minutes) {
            mean += t / minutes.length;
        }
        double absolute = 0;
        double squares = 0;
        for (double t : minutes) {
            absolute += Math.abs(t - mean);
            squares += (t - mean) * (t - mean);
        }
        List<Trend> trends = new ArrayList<>();
        for (Bound bound : BOUNDS) {
            double covariance = 0;
            for (int i = 0; i < minutes.length; i++) {
                covariance += (minutes[i] - mean) * bound.value().applyAsLong(fitted.get(i)) / bound.divisor();
            }
            double slope = covariance / squares;
            trends.add(new Trend(bound.name(), bound.unit(), bound.divisor(), bound.leakPerMinute(), bound.noise(),
                    value(bound, samples.get(0)), value(bound, fitted.get(0)),
                    value(bound, samples.get(samples.size() - 1)), slope,
                    bound.leakPerMinute() + bound.noise() * absolute / squares, fitted.size()));
        }
        return trends;
    }

    private static double value(Bound bound, Sample sample) {
        return bound.value().applyAsLong(sample) / bound.divisor();
    }

    boolean asserted() {
        return !Double.isNaN(boundPerMinute);
    }

    String describe() {
        return String.format(Locale.ROOT, "%s: slope %+.3f %s/min over %d samples after warm-up, bound %.3f "
                + "(%.3f leak + noise %.3f)", name, slopePerMinute, unit, fitted, boundPerMinute, leakPerMinute,
                noise);
    }

    String row() {
        String format = divisor == 1 ? "%.0f" : "%.2f";
        return String.format(Locale.ROOT, "| %s | " + format + " | " + format + " | " + format
                + " | %+.3f %s/min | %s | %s |", name, first, atWarmUp, last, slopePerMinute, unit,
                asserted() ? String.format(Locale.ROOT, "%.3f", boundPerMinute) : "–",
                !asserted() ? "" : slopePerMinute <= boundPerMinute ? "ok" : "**over**");
    }
}
