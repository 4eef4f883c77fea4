package dev.limiter.agent.cli;

import dev.limiter.agent.AgentVersion;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RuleSetLoader;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * {@code java -jar limiter.jar ...}: checks a rules file before it is deployed, like {@code nginx -t}.
 *
 * <p>{@code validate FILE} prints one summary line per rule and exits 0, or prints every problem as
 * {@code file:line:col: message} on stderr and exits 1 (so CI can gate a rules change on it). Usage errors exit
 * 2. It runs in the agent's isolated class loader (started by {@code LimiterAgent.main}) with the very parser
 * the agent uses, so what validates here loads at run time.
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
                if (args.length != 2) {
                    err.println("validate takes exactly one rules file");
                    usage(err);
                    return USAGE;
                }
                return validate(Path.of(args[1]), out, err);
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
        stream.println("       java -jar limiter.jar version             print the version");
        stream.println("       java -javaagent:limiter.jar=RULES.yml ... run an application with the limiter");
    }
}
