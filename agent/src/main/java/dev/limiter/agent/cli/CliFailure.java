package dev.limiter.agent.cli;

/**
 * A command that cannot go on: the message for the operator (one or more lines, printed on stderr as is) and
 * the process exit code ({@link ExitCode}). Thrown by the parts of a command and turned into output once, by
 * {@link LimiterCli}.
 */
final class CliFailure extends Exception {

    private static final long serialVersionUID = 1L;

    private final int exitCode;

    CliFailure(int exitCode, String message) {
        super(message, null, false, false);
        this.exitCode = exitCode;
    }

    CliFailure(int exitCode, String message, Throwable cause) {
        super(message, cause, false, false);
        this.exitCode = exitCode;
    }

    int exitCode() {
        return exitCode;
    }
}
