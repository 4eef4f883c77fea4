package dev.limiter.agent.cli;

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
 * {@code validate [--strategies=JARS] FILE}: checks a rules file before it is deployed, like {@code nginx -t}.
 * Prints one summary line per rule and exits 0, or prints every problem as {@code file:line:col: message} on
 * stderr and exits 1 (so CI can gate a rules change on it); unusable strategy jars exit 2. It runs the very parser
 * the agent uses, so what validates here loads at run time.
 */
final class ValidateCommand {

    private ValidateCommand() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws CliFailure {
        if (ClasspathValidation.wanted(args)) {
            return ClasspathValidation.run(args, out, err);
        }
        ValidateArguments arguments;
        try {
            arguments = ValidateArguments.parse(args);
        } catch (IllegalArgumentException e) {
            throw new CliFailure(ExitCode.USAGE, "validate takes one rules file and optionally --strategies=JAR["
                    + File.pathSeparator + "JAR...], not '" + e.getMessage() + "'");
        }
        String strategies = arguments.strategies();
        String file = arguments.file();
        if (file == null) {
            throw new CliFailure(ExitCode.USAGE, "validate takes exactly one rules file");
        }
        try {
            StrategyJars.load(StrategyJars.parse(strategies));
        } catch (IllegalArgumentException e) {
            err.println(e.getMessage());
            return ExitCode.USAGE;
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
            return ExitCode.FAILED;
        }
        for (Rule rule : rules.rules()) {
            out.println(rule);
        }
        out.println(file + ": OK, " + rules.rules().size() + (rules.rules().size() == 1 ? " rule" : " rules"));
        return ExitCode.OK;
    }
}
