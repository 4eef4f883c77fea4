package dev.limiter.bench.overload;

import java.util.List;
import java.util.Locale;

/** The comparison as markdown: one table of every contender at every load, the recovery, and the targets. */
final class OverloadReport {

    /** At 4x: the adaptive rule's goodput against the best static limit's, at least. */
    static final double GOODPUT_TARGET = 0.9;
    /** At 4x: the adaptive rule's p99 against the unloaded service's p99, at most. */
    static final double P99_TARGET = 3;
    /** After the overload: seconds until the adaptive limit is back, at most. */
    static final double RECOVERY_TARGET = 10;

    private OverloadReport() {
    }

    static String markdown(OverloadSettings settings, List<ContenderRun> runs) {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Endpoint: a pool of %d workers, %d ms each (capacity %.0f calls/s),"
                + " Tomcat 11 with 200 platform threads. Open-loop load, latency from when each request was due;"
                + " clients give up after %d ms. Phases of %.0f s (warm-up %.0f s at 0.5x; recovery %.0f s at"
                + " 1x straight after 4x).%n%n", settings.pool(), settings.workMillis(), settings.capacity(),
                settings.timeout().toMillis(), settings.phaseSeconds(), settings.warmupSeconds(),
                settings.recoverySeconds()));
        md.append("| contender | load | offered/s | goodput/s | p50 ms | p99 ms | p99.9 ms | refused | lost"
                + " | sender lag p99 ms |\n");
        md.append("|---|---|---:|---:|---:|---:|---:|---:|---:|---:|\n");
        for (ContenderRun run : runs) {
            for (PhaseResult phase : run.phases()) {
                md.append(String.format(Locale.ROOT, "| %s | %s | %.0f | %.0f | %s | %s | %s | %s | %s | %s |%n",
                        run.contender().name(), phase.name(), phase.rate(), phase.goodput(),
                        millis(phase.successMillis(0.5)), millis(phase.successMillis(0.99)),
                        millis(phase.successMillis(0.999)), percent(phase.rejected(), phase.sent()),
                        percent(phase.lost(), phase.sent()), millis(phase.lagMillis(0.99))));
            }
        }
        md.append("\n\"refused\": answered 429 (or 503); \"lost\": timed out or failed; \"sender lag\": how late"
                + " the load generator sent (included in the latencies; a large lag means the generator, not the"
                + " server, fell behind). \"after\": 1x straight after the 4x phase.\n\n");
        md.append("| contender | seconds after 4x until refusals < 1 % | adaptive limit at 1x | lowest at 4x |"
                + " back to it after |\n|---|---:|---:|---:|---:|\n");
        for (ContenderRun run : runs) {
            int settled = run.secondsToStopRefusing();
            boolean adaptive = !run.limits().isEmpty();
            int full = adaptive ? run.limitAtEndOf("1x") : -1;
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s |%n", run.contender().name(),
                    settled < 0 ? "not within the phase" : Integer.toString(settled),
                    adaptive ? Integer.toString(full) : "", adaptive ? Integer.toString(run.lowestLimitIn("4x")) : "",
                    adaptive ? seconds(run.secondsToLimit(full)) : ""));
        }
        for (ContenderRun run : runs) {
            if (!run.limits().isEmpty()) {
                md.append("\n").append(run.contender().name()).append(", second by second (limit / p99 ms of the"
                        + " successful requests due in that second):\n\n");
                for (PhaseResult phase : run.phases()) {
                    int[] limit = run.limitBySecond(phase.name());
                    long[] p99 = phase.successP99BySecond();
                    md.append("- ").append(phase.name()).append(':');
                    for (int s = 0; s < limit.length; s++) {
                        md.append(' ').append(limit[s]).append('/').append(p99[s]);
                    }
                    md.append('\n');
                }
            }
        }
        md.append('\n').append(targets(runs));
        return md.toString();
    }

    /** The targets for the adaptive rule at 4x, each with its measured value and whether it was met. */
    static String targets(List<ContenderRun> runs) {
        ContenderRun adaptive = find(runs, Contender.ADAPTIVE);
        ContenderRun unlimited = find(runs, "no limiter");
        if (adaptive == null) {
            return "";
        }
        StringBuilder md = new StringBuilder("| target (adaptive, defaults only) | measured | met |\n|---|---:|---|\n");
        double best = 0;
        String bestName = "";
        for (ContenderRun run : runs) {
            if (run.contender().name().startsWith("concurrency ")
                    && run.phase(ContenderRun.OVERLOAD).goodput() > best) {
                best = run.phase(ContenderRun.OVERLOAD).goodput();
                bestName = run.contender().name();
            }
        }
        if (best > 0) {
            double ratio = adaptive.phase(ContenderRun.OVERLOAD).goodput() / best;
            md.append(row("goodput at 4x >= 90 % of the best static limit's (" + bestName + ")",
                    String.format(Locale.ROOT, "%.0f %%", ratio * 100), ratio >= GOODPUT_TARGET));
        }
        if (unlimited != null) {
            double unloaded = unlimited.phase(ContenderRun.UNLOADED).successMillis(0.99);
            double ratio = adaptive.phase(ContenderRun.OVERLOAD).successMillis(0.99) / unloaded;
            md.append(row(String.format(Locale.ROOT, "p99 at 4x <= 3x the unloaded p99 (%.1f ms)", unloaded),
                    String.format(Locale.ROOT, "%.1fx", ratio), ratio <= P99_TARGET));
        }
        double back = adaptive.secondsToLimit(adaptive.limitAtEndOf("1x"));
        md.append(row("limit back to its 1x value within 10 s of the overload's end", seconds(back),
                back >= 0 && back <= RECOVERY_TARGET));
        return md.toString();
    }

    private static String row(String target, String measured, boolean met) {
        return "| " + target + " | " + measured + " | " + (met ? "yes" : "**no**") + " |\n";
    }

    private static ContenderRun find(List<ContenderRun> runs, String name) {
        return runs.stream().filter(r -> r.contender().name().equals(name)).findFirst().orElse(null);
    }

    private static String millis(double value) {
        return Double.isNaN(value) ? "–" : String.format(Locale.ROOT, value < 10 ? "%.1f" : "%.0f", value);
    }

    private static String percent(int part, int whole) {
        return String.format(Locale.ROOT, "%.1f %%", 100.0 * part / whole);
    }

    private static String seconds(double value) {
        return value < 0 ? "not within the phase" : String.format(Locale.ROOT, "%.2f s", value);
    }
}
