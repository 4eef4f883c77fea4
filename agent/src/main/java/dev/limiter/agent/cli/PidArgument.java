package dev.limiter.agent.cli;

/** A command's {@code PID} argument: a positive process id, as {@code jps} and {@code jcmd} print them. */
final class PidArgument {

    private PidArgument() {
    }

    static long parse(String text) throws CliFailure {
        if (text == null) {
            throw new CliFailure(ExitCode.USAGE, "missing PID (jps or jcmd lists the JVMs of this user)");
        }
        try {
            long pid = Long.parseLong(text.trim());
            if (pid > 0) {
                return pid;
            }
        } catch (NumberFormatException e) {
            // reported below
        }
        throw new CliFailure(ExitCode.USAGE, "'" + text + "' is not a process id (a positive number; jps or jcmd "
                + "lists the JVMs of this user)");
    }

    static boolean looksLikePid(String text) {
        return !text.isEmpty() && text.chars().allMatch(Character::isDigit);
    }
}
