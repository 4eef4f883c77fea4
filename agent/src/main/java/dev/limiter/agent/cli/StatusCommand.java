package dev.limiter.agent.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.time.temporal.ChronoUnit;
import javax.management.JMException;

/**
 * {@code status PID|--jmx HOST:PORT [--json] [--watch [SECONDS]]}: the limiter of a running JVM on one screen
 * ({@link StatusScreen}) or as one JSON document ({@link StatusJson}), read from its MBeans over the local
 * connector, or over a remote one ({@link JmxAddress}). {@code --watch} reads again every SECONDS (default 2): on a terminal it redraws in place, into a
 * pipe or file it prints successive blocks (JSON: one document per line), until Ctrl-C or the JVM exits.
 */
final class StatusCommand {

    static final double DEFAULT_WATCH_SECONDS = 2;
    static final double MIN_WATCH_SECONDS = 0.1;

    /**
     * The parsed command line. {@code watchSeconds} is 0 without {@code --watch}; {@code jmx} is null without
     * {@code --jmx}, and then {@code pid} is the JVM to attach to (else 0).
     */
    record Options(long pid, boolean json, double watchSeconds, JmxAddress jmx) {

        Options(long pid, boolean json, double watchSeconds) {
            this(pid, json, watchSeconds, null);
        }
    }

    private StatusCommand() {
    }

    static Options parse(String[] command) throws CliFailure {
        List<String> rest = new ArrayList<>(List.of(command));
        JmxAddress jmx = JmxAddress.extract(rest);
        String[] args = rest.toArray(String[]::new);
        String pid = null;
        boolean json = false;
        double watch = 0;
        for (int i = 1; i < args.length; i++) {
            String arg = args[i];
            if (arg.equals("--json")) {
                json = true;
            } else if (arg.equals("--watch")) {
                watch = DEFAULT_WATCH_SECONDS;
                // "--watch 5": the number is the interval when the pid is given elsewhere
                if (i + 1 < args.length && isSeconds(args[i + 1])
                        && (pid != null || jmx != null || otherPidFollows(args, i + 2))) {
                    watch = seconds(args[++i]);
                }
            } else if (arg.startsWith("--watch=")) {
                watch = seconds(arg.substring("--watch=".length()));
            } else if (pid == null && !arg.startsWith("-")) {
                pid = arg;
            } else {
                throw new CliFailure(ExitCode.USAGE, "status takes a PID or --jmx HOST:PORT, --json and --watch "
                        + "[SECONDS], not '" + arg + "'");
            }
        }
        if (jmx != null) {
            if (pid != null) {
                throw new CliFailure(ExitCode.USAGE, "status takes a PID or --jmx HOST:PORT, not both");
            }
            return new Options(0, json, watch, jmx);
        }
        return new Options(PidArgument.parse(pid), json, watch);
    }

    private static boolean otherPidFollows(String[] args, int from) {
        for (int i = from; i < args.length; i++) {
            if (PidArgument.looksLikePid(args[i])) {
                return true;
            }
        }
        return false;
    }

    private static boolean isSeconds(String text) {
        try {
            Double.parseDouble(text);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    static double seconds(String text) throws CliFailure {
        try {
            double seconds = Double.parseDouble(text);
            if (seconds >= MIN_WATCH_SECONDS && seconds <= 86_400) {
                return seconds;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CliFailure(ExitCode.USAGE, "--watch takes seconds between " + MIN_WATCH_SECONDS + " and 86400, not '"
                + text + "'");
    }

    static int run(String[] args, PrintStream out, boolean terminal) throws CliFailure {
        Options options = parse(args);
        try (LimiterConnection connection = LimiterConnection.open(options.pid(), options.jmx())) {
            StatusReader reader = new StatusReader(connection.mbeans());
            if (options.watchSeconds() == 0) {
                print(read(reader, connection), options, out);
                return ExitCode.OK;
            }
            return watch(reader, connection, options, out, terminal);
        }
    }

    private static int watch(StatusReader reader, LimiterConnection connection, Options options, PrintStream out,
            boolean terminal) throws CliFailure {
        long pauseMillis = Math.round(options.watchSeconds() * 1000);
        boolean first = true;
        while (true) {
            LimiterStatus status = read(reader, connection);
            if (options.json()) {
                print(status, options, out);
            } else {
                if (terminal) {
                    out.print(Terminal.CLEAR);
                } else if (!first) {
                    out.println();
                }
                out.println("every " + seconds(options.watchSeconds()) + " s, " + LocalTime.now()
                        .truncatedTo(ChronoUnit.SECONDS) + (terminal ? "; Ctrl-C stops" : ""));
                print(status, options, out);
            }
            out.flush();
            first = false;
            try {
                Thread.sleep(pauseMillis);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return ExitCode.OK;
            }
        }
    }

    private static LimiterStatus read(StatusReader reader, LimiterConnection connection) throws CliFailure {
        try {
            return reader.read(connection.pid());
        } catch (IOException | JMException | RuntimeException e) {
            throw connection.failed("read the limiter's MBeans", e);
        }
    }

    private static void print(LimiterStatus status, Options options, PrintStream out) {
        if (options.json()) {
            out.println(StatusJson.of(status));
            return;
        }
        for (String line : StatusScreen.lines(status)) {
            out.println(line);
        }
    }

    private static String seconds(double seconds) {
        return seconds == Math.rint(seconds) ? Long.toString((long) seconds) : Double.toString(seconds);
    }
}
