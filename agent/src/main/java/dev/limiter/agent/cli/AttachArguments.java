package dev.limiter.agent.cli;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The agent argument {@code attach} hands to {@code agentmain}: the same forms as {@code -javaagent:limiter.jar=...}
 * (a bare rules path, or {@code rules=...,name=value} pairs), with the rules path made absolute, because the
 * application's working directory is not this command's. Empty means none: the agent then looks where it always
 * does, in the application's {@code -Dlimiter.rules}, {@code LIMITER_RULES} or working directory.
 */
final class AttachArguments {

    private static final String RULES = "rules=";

    private AttachArguments() {
    }

    /**
     * @param given the operator's argument, or null
     * @param cwd   this command's working directory
     * @throws CliFailure {@link ExitCode#FAILED} when the rules file named does not exist here
     */
    static String agentArgument(String given, Path cwd) throws CliFailure {
        if (given == null || given.isBlank()) {
            return "";
        }
        String trimmed = given.trim();
        if (trimmed.indexOf('=') < 0) {
            return RULES + rulesFile(trimmed, cwd);
        }
        StringBuilder argument = new StringBuilder();
        for (String part : trimmed.split(",")) {
            String item = part.trim();
            if (item.isEmpty()) {
                continue;
            }
            if (argument.length() > 0) {
                argument.append(',');
            }
            argument.append(item.startsWith(RULES) ? RULES + rulesFile(item.substring(RULES.length()).trim(), cwd) : item);
        }
        return argument.toString();
    }

    /** The rules file as the application must see it; it must exist (the agent would only log its absence). */
    static String rulesFile(String path, Path cwd) throws CliFailure {
        if (path.indexOf(',') >= 0) {
            throw new CliFailure(ExitCode.USAGE, "the rules path '" + path + "' holds a comma, which separates agent "
                    + "arguments");
        }
        Path file = cwd.resolve(path).toAbsolutePath().normalize();
        if (!Files.isRegularFile(file)) {
            throw new CliFailure(ExitCode.FAILED, "no rules file " + file);
        }
        return file.toString();
    }
}
