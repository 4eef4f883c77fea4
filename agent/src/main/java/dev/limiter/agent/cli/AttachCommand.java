package dev.limiter.agent.cli;

import dev.limiter.agent.startup.AgentArgs;
import dev.limiter.agent.startup.StrategyJars;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.compile.RuleSetLoader;
import java.io.File;
import java.io.PrintStream;
import java.net.URISyntaxException;
import java.nio.file.Path;

/**
 * {@code attach PID [RULES.yml | rules=...,name=value]}: loads the agent into a running JVM (its
 * {@code agentmain}, as {@code -javaagent} would have run premain), unless the limiter is there already: then it
 * says so and how to re-read the rules, and loads nothing ({@link ExitCode#ALREADY_LOADED}). The agent starts in
 * the background and logs its banner (or what went wrong) to the application's log, as with {@code -javaagent}.
 *
 * <p>What can be checked here is checked before attaching, because the agent could only log it where the
 * operator is not looking: the argument's syntax (the agent's own parser) and, when a rules file is named, the
 * rules (the agent's own loader, with the custom strategies the argument names).
 */
final class AttachCommand {

    private AttachCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws CliFailure {
        if (args.length < 2 || args.length > 3) {
            throw new CliFailure(ExitCode.USAGE, "attach takes a PID and optionally a rules file or agent arguments: "
                    + "attach PID [RULES.yml | rules=RULES.yml,strict=true]");
        }
        long pid = PidArgument.parse(args[1]);
        String argument = AttachArguments.agentArgument(args.length == 3 ? args[2] : null, Path.of(""));
        RuleSet rules = argument.isEmpty() ? null : checkRules(argument, err);
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
        if (rules != null && (!rules.methodRules().isEmpty() || !rules.jaxrsRules().isEmpty())) {
            out.println("Its method and jaxrs rules are in force now (the loaded classes they name were woven before"
                    + " the attach returned).");
        }
        out.println("Its MBeans appear after the next request; then: java -jar limiter.jar status " + pid);
        return ExitCode.OK;
    }

    /**
     * Checks the argument as the agent will parse it, and the rules it names as the agent will load them; returns
     * those rules.
     */
    static RuleSet checkRules(String argument, PrintStream err) throws CliFailure {
        AgentArgs parsed;
        try {
            parsed = AgentArgs.parse(argument);
            StrategyJars.load(parsed.strategies());
        } catch (IllegalArgumentException e) {
            throw new CliFailure(ExitCode.USAGE, "not attached: " + e.getMessage());
        }
        try {
            return RuleSetLoader.load(parsed.rules(), RuleSet.empty());
        } catch (RulesException e) {
            for (RulesError error : e.errors()) {
                err.println(error);
            }
            throw new CliFailure(ExitCode.FAILED, "not attached: " + parsed.rules() + " has " + e.errors().size()
                    + (e.errors().size() == 1 ? " error" : " errors") + "; fix it first (java -jar limiter.jar "
                    + "validate " + parsed.rules() + ")");
        }
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
