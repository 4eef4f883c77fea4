package dev.limiter.agent.cli;

import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * {@code attach PID [RULES.yml | rules=...,name=value]}: loads the agent into a running JVM (its
 * {@code agentmain}, as {@code -javaagent} would have run premain), unless the limiter is there already: then it
 * says so and how to re-read the rules, and loads nothing ({@link ExitCode#ALREADY_LOADED}). The agent starts in
 * the background and logs its banner (or what went wrong) to the application's log, as with {@code -javaagent}.
 */
final class AttachCommand {

    private AttachCommand() {
    }

    static int run(String[] args, PrintStream out) throws CliFailure {
        if (args.length < 2 || args.length > 3) {
            throw new CliFailure(ExitCode.USAGE, "attach takes a PID and optionally a rules file or agent arguments: "
                    + "attach PID [RULES.yml | rules=RULES.yml,strict=true]");
        }
        long pid = PidArgument.parse(args[1]);
        String argument = AttachArguments.agentArgument(args.length == 3 ? args[2] : null, Path.of(""));
        String jar = agentJar();
        AttachApi.require();
        try (TargetJvm target = TargetJvm.attach(pid)) {
            String loaded = AgentPresence.loadedJar(target.systemProperties(), target.jvmArguments());
            if (loaded != null) {
                throw new CliFailure(ExitCode.ALREADY_LOADED, "the limiter is already loaded in pid " + pid + " (from "
                        + loaded + "); nothing was loaded again.\n"
                        + "To re-read its rules file: java -jar limiter.jar reload " + pid + "\n"
                        + "To see it:                 java -jar limiter.jar status " + pid);
            }
            target.loadAgent(jar, argument);
            if (target.systemProperties().getProperty(TargetJvm.AGENT_PROPERTY) == null) {
                throw new CliFailure(ExitCode.FAILED, "pid " + pid + " ran the agent's agentmain but the limiter did "
                        + "not start; the application's log says why");
            }
        }
        out.println("limiter loaded into pid " + pid + (argument.isEmpty()
                ? " (no rules file given: it reads the application's -Dlimiter.rules, LIMITER_RULES or rules.yml)"
                : " with " + argument));
        out.println("It starts in the background and logs its banner, or what is wrong, to the application's log.");
        out.println("Its MBeans appear after the next request; then: java -jar limiter.jar status " + pid);
        return ExitCode.OK;
    }

    /** This jar: the CLI runs from it (the agent loader's code source). */
    static String agentJar() throws CliFailure {
        try {
            return new File(AttachCommand.class.getProtectionDomain().getCodeSource().getLocation().toURI()).getPath();
        } catch (URISyntaxException | RuntimeException e) {
            throw new CliFailure(ExitCode.FAILED, "cannot tell where limiter.jar is: " + e);
        }
    }
}
