package dev.limiter.agent.cli;

import com.sun.tools.attach.AttachNotSupportedException;
import java.io.IOException;

/**
 * Turns what the Attach API says about a pid into a sentence for the operator and an {@link ExitCode}. The API
 * reports most failures as messages only, which differ between JDKs ("No such process" on 17, "non existent JVM
 * pid" on 25; a process that never answers times out after ~10 s on 17 and is "not ready to participate in
 * attach handshake" on 25), so the process table is asked first where it knows better: whether the pid exists
 * and who owns it.
 */
final class AttachErrors {

    private static final String ROOT = "root";

    private AttachErrors() {
    }

    /**
     * Checks what can be known before attaching: the process exists, it is not this one, and (unless we are
     * root, whom the JVM's attach listener accepts) it belongs to our user.
     *
     * @param owner the process's user, or null if the process table does not say; {@code me} likewise
     */
    static void beforeAttach(long pid, boolean exists, String owner, String me, long self) throws CliFailure {
        if (!exists) {
            throw noProcess(pid);
        }
        if (pid == self) {
            throw new CliFailure(ExitCode.USAGE, "pid " + pid + " is this command's own JVM: give the pid of the "
                    + "application's JVM (jps or jcmd lists them)");
        }
        if (owner != null && me != null && !owner.equals(me) && !me.equals(ROOT)) {
            throw new CliFailure(ExitCode.NOT_ATTACHABLE, "pid " + pid + " belongs to user " + owner
                    + " and this command runs as " + me + ": the Attach API only reaches JVMs of the same user. "
                    + "Run it as " + owner + ", e.g. sudo -u " + owner + " java -jar limiter.jar ...");
        }
    }

    /** The failure of {@code VirtualMachine.attach(pid)}; {@code alive}: whether the process still exists. */
    static CliFailure attachFailed(long pid, Exception error, boolean alive) {
        String message = String.valueOf(error.getMessage());
        if (!alive || message.contains("No such process") || message.contains("non existent JVM pid")) {
            return noProcess(pid);
        }
        if (error instanceof AttachNotSupportedException && message.contains("does not support the attach mechanism")) {
            return new CliFailure(ExitCode.ATTACH_DISABLED, "pid " + pid + " refuses to be attached to: it runs with "
                    + "-XX:+DisableAttachMechanism. Restart it without that option, or start it with the agent "
                    + "(-javaagent:limiter.jar=rules.yml) and read it over remote JMX.", error);
        }
        if (message.contains("Permission denied") || message.contains("Operation not permitted")) {
            return new CliFailure(ExitCode.NOT_ATTACHABLE, "pid " + pid + " cannot be attached to (" + message
                    + "): it belongs to another user or another container; run the command as its user, in its "
                    + "container", error);
        }
        return new CliFailure(ExitCode.NOT_ATTACHABLE, "pid " + pid + " did not answer the attach request ("
                + message + "): it is not a Java process, not a HotSpot JVM, runs in another container, or is "
                + "too busy to answer", error);
    }

    /** A failure after the attach worked: the JVM went away, or it refused what we asked. */
    static CliFailure talkFailed(long pid, String what, Exception error, boolean alive) {
        if (!alive) {
            return noProcess(pid);
        }
        int code = error instanceof IOException ? ExitCode.NOT_ATTACHABLE : ExitCode.FAILED;
        return new CliFailure(code, "pid " + pid + ": cannot " + what + ": " + error, error);
    }

    static CliFailure noProcess(long pid) {
        return new CliFailure(ExitCode.NO_PROCESS, "no process with pid " + pid + " (jps or jcmd lists the JVMs "
                + "of this user)");
    }
}
