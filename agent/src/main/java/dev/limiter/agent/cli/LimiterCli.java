package dev.limiter.agent.cli;

import dev.limiter.agent.diagnostics.AgentVersion;
import dev.limiter.agent.startup.StrategyJars;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.compile.RuleSetLoader;
import java.io.File;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code java -jar limiter.jar ...}: checks a rules file before it is deployed, like {@code nginx -t}.
 *
 * <p>{@code validate [--strategies=JARS] FILE} prints one summary line per rule and exits 0, or prints every
 * problem as {@code file:line:col: message} on stderr and exits 1 (so CI can gate a rules change on it). Usage
 * errors and unusable strategy jars exit 2. It runs in the agent's isolated class loader (started by
 * {@code LimiterAgent.main}) with the very parser the agent uses, so what validates here loads at run time.
 */
public final class LimiterCli {

    static final int OK = 0;
    static final int INVALID = 1;
    static final int USAGE = 2;

    private LimiterCli() {
    }

    /** Runs one command; returns the process exit code. Never calls {@code System.exit}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        if (args.length == 0 || args[0].equals("help") || args[0].equals("--help") || args[0].equals("-h")) {
            usage(args.length == 0 ? err : out);
            return args.length == 0 ? USAGE : OK;
        }
        switch (args[0]) {
            case "validate":
                return validate(args, out, err);
            case "version":
            case "--version":
                out.println("limiter " + AgentVersion.get());
                return OK;
            default:
                err.println("unknown command '" + args[0] + "'");
                usage(err);
                return USAGE;
        }
    }

    /** {@code validate [--strategies=a.jar:b.jar] RULES.yml}: custom strategies load first, as in the agent. */
    private static int validate(String[] args, PrintStream out, PrintStream err) {
        if (ClasspathValidation.wanted(args)) {
            return ClasspathValidation.run(args, out, err);
        }
        String strategies = null;
        String file = null;
        for (int i = 1; i < args.length; i++) {
            if (args[i].startsWith("--strategies=")) {
                strategies = args[i].substring("--strategies=".length());
            } else if (args[i].equals("--strategies") && i + 1 < args.length) {
                strategies = args[++i];
            } else if (file == null && !args[i].startsWith("--")) {
                file = args[i];
            } else {
                err.println("validate takes one rules file and optionally --strategies=JAR[" + File.pathSeparator
                        + "JAR...], not '" + args[i] + "'");
                usage(err);
                return USAGE;
            }
        }
        if (file == null) {
            err.println("validate takes exactly one rules file");
            usage(err);
            return USAGE;
        }
        try {
            StrategyJars.load(StrategyJars.parse(strategies));
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return USAGE;
        }
        return validate(Path.of(file), out, err);
    }

    static int validate(Path file, PrintStream out, PrintStream err) {
        RuleSet rules;
        try {
            rules = RuleSetLoader.load(file, RuleSet.empty());
        } catch (RulesException e) {
            for (RulesError error : e.errors()) {
                err.println(error);
            }
            err.println(file + ": " + e.errors().size() + (e.errors().size() == 1 ? " error" : " errors"));
            return INVALID;
        }
        for (Rule rule : rules.rules()) {
            out.println(rule);
        }
        out.println(file + ": OK, " + rules.rules().size() + (rules.rules().size() == 1 ? " rule" : " rules"));
        return OK;
    }

    private static void usage(PrintStream stream) {
        stream.println("usage: java -jar limiter.jar validate RULES.yml   check a rules file (exit 0 ok, 1 invalid)");
        stream.println("       java -jar limiter.jar validate --strategies=A.jar" + File.pathSeparator
                + "B.jar RULES.yml   the same, with custom strategies");
        stream.println("       java -jar limiter.jar validate --classpath APP.jar" + File.pathSeparator
                + "DIR [RULES.yml]   check the @Limit annotations of the classes (and the file)");
        stream.println("       java -jar limiter.jar version             print the version");
        stream.println("       java -javaagent:limiter.jar=RULES.yml ... run an application with the limiter");
    }
}
