package dev.limiter.agent.cli;

/**
 * The command line's exit codes, so scripts can tell a mistyped command from a JVM that cannot be reached and
 * from one that already runs the limiter. docs/cli.md lists them; keep both in step.
 */
final class ExitCode {

    /** The command did what it was asked. */
    static final int OK = 0;
    /** The operation failed or its input is invalid: invalid rules, a refused reload, an unknown rule id. */
    static final int FAILED = 1;
    /** The command line itself is wrong: unknown command, missing or malformed argument. */
    static final int USAGE = 2;
    /** No process has that pid (or it exited while we talked to it). */
    static final int NO_PROCESS = 3;
    /** The process cannot be attached to: another user's, not a JVM, in another container, or it did not answer. */
    static final int NOT_ATTACHABLE = 4;
    /** The JVM refuses every attach: it runs with {@code -XX:+DisableAttachMechanism}. */
    static final int ATTACH_DISABLED = 5;
    /** {@code attach}: the limiter is already loaded in that JVM (nothing was loaded a second time). */
    static final int ALREADY_LOADED = 6;
    /** The JVM runs no limiter, or its MBeans are not registered (yet, or {@code -Dlimiter.jmx=false}). */
    static final int NO_LIMITER = 7;
    /** This Java runtime has no Attach API ({@code jdk.attach}): a JRE or a jlink image without it. */
    static final int NO_ATTACH_API = 8;
    /** {@code --jmx}: the JMX address does not answer, or refuses the connection (credentials, TLS). */
    static final int JMX_UNREACHABLE = 9;

    private ExitCode() {
    }
}
