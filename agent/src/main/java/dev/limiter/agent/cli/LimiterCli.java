package dev.limiter.agent.cli;

import dev.limiter.agent.diagnostics.AgentVersion;
import java.io.PrintStream;

/**
 * {@code java -jar limiter.jar COMMAND ...}: checks rules files and steers the limiter in running JVMs.
 *
 * <p>It runs in the agent's isolated class loader (started by {@code LimiterAgent.main}), so {@code validate}
 * uses the very parser the agent uses, {@code jfc} prints the JFR settings packaged with the agent, and the JVM
 * commands ({@code attach}, {@code status}, {@code reload}, {@code enable}, {@code disable}, {@code mode}) reach
 * the other JVM through the Attach API and its local JMX connector, or with {@code --jmx} through its remote JMX
 * connector (no Attach API needed: a JRE will do), reading the MBeans by name only. This class
 * only dispatches: each command is its own class, and every failure arrives here as a {@link CliFailure} with
 * its {@link ExitCode}.
 */
public final class LimiterCli {

    private LimiterCli() {
    }

    /** Runs one command; returns the process exit code. Never calls {@code System.exit}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, out == System.out && Terminal.stdoutIsTerminal());
    }

    /** {@code terminal}: whether {@code out} is a terminal ({@code status --watch} redraws in place there). */
    static int run(String[] args, PrintStream out, PrintStream err, boolean terminal) {
        if (args.length == 0) {
            Usage.print(err);
            return ExitCode.USAGE;
        }
        try {
            switch (args[0]) {
                case "help", "--help", "-h" -> {
                    Usage.print(out);
                    return ExitCode.OK;
                }
                case "version", "--version" -> {
                    out.println("limiter " + AgentVersion.get());
                    return ExitCode.OK;
                }
                case "jfc" -> {
                    return JfcCommand.run(args, out);
                }
                case "validate" -> {
                    return ValidateCommand.run(args, out, err);
                }
                case "attach" -> {
                    return AttachCommand.run(args, out, err);
                }
                case "status" -> {
                    return StatusCommand.run(args, out, terminal);
                }
                case "reload", "enable", "disable", "mode" -> {
                    return SteeringCommand.run(args, out);
                }
                default -> throw new CliFailure(ExitCode.USAGE, "unknown command '" + args[0] + "'");
            }
        } catch (CliFailure e) {
            err.println(e.getMessage());
            if (e.exitCode() == ExitCode.USAGE) {
                err.println();
                Usage.print(err);
            }
            return e.exitCode();
        }
    }
}
