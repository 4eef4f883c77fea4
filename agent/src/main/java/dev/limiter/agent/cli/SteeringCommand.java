package dev.limiter.agent.cli;

import java.io.IOException;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.management.JMException;
import javax.management.MBeanException;
import javax.management.RuntimeMBeanException;

/**
 * The JMX steering without a JMX client: {@code reload PID}, {@code enable PID}, {@code disable PID} and
 * {@code mode PID RULE enforce|dry-run|file}, each also with {@code --jmx HOST:PORT} in place of the PID. Each prints what it did and the state that results, read back from
 * the MBeans (not assumed), and exits non-zero when the limiter refused (a broken rules file, an unknown rule).
 */
final class SteeringCommand {

    static final List<String> MODES = List.of("enforce", "dry-run", "file");

    private SteeringCommand() {
    }

    static int run(String[] arguments, PrintStream out) throws CliFailure {
        List<String> rest = new ArrayList<>(List.of(arguments));
        JmxAddress jmx = JmxAddress.extract(rest);
        if (jmx != null) {
            // --jmx names the JVM: a placeholder where the PID goes keeps the positions of RULE and MODE
            rest.add(1, "0");
        }
        String[] args = rest.toArray(String[]::new);
        String command = args[0];
        if (command.equals("mode")) {
            if (args.length != 4) {
                throw new CliFailure(ExitCode.USAGE, "mode takes a PID (or --jmx HOST:PORT), a rule id and a mode: "
                        + "mode PID RULE " + String.join("|", MODES));
            }
        } else if (args.length != 2) {
            throw new CliFailure(ExitCode.USAGE, command + " takes exactly one PID (or --jmx HOST:PORT): " + command
                    + " PID");
        }
        long pid = jmx == null ? PidArgument.parse(args[1]) : 0;
        String mode = command.equals("mode") ? mode(args[3]) : null;
        try (LimiterConnection connection = LimiterConnection.open(pid, jmx)) {
            LimiterMBeans mbeans = connection.mbeans();
            pid = connection.pid();
            try {
                return switch (command) {
                    case "reload" -> reload(pid, mbeans, out);
                    case "enable" -> enable(pid, mbeans, true, out);
                    case "disable" -> enable(pid, mbeans, false, out);
                    case "mode" -> mode(pid, mbeans, args[2], mode, out);
                    default -> throw new CliFailure(ExitCode.USAGE, "unknown command '" + command + "'");
                };
            } catch (IOException | JMException e) {
                throw connection.failed(command, e);
            }
        }
    }

    static String mode(String text) throws CliFailure {
        String mode = text.trim().toLowerCase(Locale.ROOT);
        if (!MODES.contains(mode)) {
            throw new CliFailure(ExitCode.USAGE, "'" + text + "' is not a mode: " + String.join(", ", MODES)
                    + " (file: back to the rules file's mode)");
        }
        return mode;
    }

    private static int reload(long pid, LimiterMBeans mbeans, PrintStream out) throws IOException, JMException {
        String result = String.valueOf(mbeans.invoke(LimiterMBeans.LIMITER, "reload"));
        for (String line : result.split("\\R")) {
            out.println(TerminalText.line(line));
        }
        LimiterMBeans.Values state = mbeans.read(LimiterMBeans.LIMITER, "RuleCount", "ReloadCount",
                "FailedReloadCount");
        out.println("pid " + pid + ": " + state.number("RuleCount") + " rules in force; reloads "
                + state.number("ReloadCount") + " ok, " + state.number("FailedReloadCount") + " failed");
        return result.startsWith("reloaded") ? ExitCode.OK : ExitCode.FAILED;
    }

    private static int enable(long pid, LimiterMBeans mbeans, boolean enable, PrintStream out)
            throws IOException, JMException {
        boolean before = Boolean.TRUE.equals(mbeans.get(LimiterMBeans.LIMITER, "Enabled"));
        mbeans.set(LimiterMBeans.LIMITER, "Enabled", enable);
        boolean after = Boolean.TRUE.equals(mbeans.get(LimiterMBeans.LIMITER, "Enabled"));
        out.println("limiter in pid " + pid + ": " + (after ? "enabled" : "disabled (every request is allowed)")
                + (before == after ? ", as it was" : ", was " + (before ? "enabled" : "disabled")));
        return after == enable ? ExitCode.OK : ExitCode.FAILED;
    }

    private static int mode(long pid, LimiterMBeans mbeans, String id, String mode, PrintStream out)
            throws IOException, JMException, CliFailure {
        LimiterMBeans.Rule rule = mbeans.rule(id);
        if (rule == null) {
            List<String> ids = new ArrayList<>();
            for (LimiterMBeans.Rule each : mbeans.rules()) {
                ids.add(TerminalText.line(each.id()));
            }
            throw new CliFailure(ExitCode.FAILED, "no rule '" + TerminalText.line(id) + "' in pid " + pid + "; its rules: "
                    + (ids.isEmpty() ? "none" : String.join(", ", ids)));
        }
        String before = String.valueOf(mbeans.get(rule.name(), "Mode"));
        try {
            mbeans.set(rule.name(), "Mode", mode);
        } catch (RuntimeMBeanException | MBeanException e) {
            Throwable cause = e.getCause() == null ? e : e.getCause();
            throw new CliFailure(ExitCode.FAILED, "pid " + pid + " refused mode " + mode + " for rule " + id + ": "
                    + cause.getMessage(), e);
        }
        LimiterMBeans.Values after = mbeans.read(rule.name(), "Mode", "FileMode");
        out.println("rule " + TerminalText.line(id) + " in pid " + pid + ": mode " + after.text("Mode")
                + (before.equals(after.text("Mode")) ? ", as it was" : ", was " + before) + "; the rules file says "
                + after.text("FileMode"));
        return ExitCode.OK;
    }
}
