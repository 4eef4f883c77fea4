package dev.limiter.agent.cli;

import java.io.IOException;
import javax.management.remote.JMXConnector;

/**
 * A JMX connection to the limiter in another JVM, and that JVM's pid. Locally: attach, start (or find) the JDK's
 * local connector, detach, connect. Over the network ({@code --jmx}): connect to the remote connector
 * ({@link RemoteJmx}), never touching the Attach API, so it works from a JRE. Either way it checks that
 * {@code dev.limiter:type=Limiter} is there; when it is not, says why: no limiter in that JVM (then how to load
 * one), or the agent is loaded but has not registered its MBeans yet (it waits for the first request, at most
 * 10 s) or runs with {@code -Dlimiter.jmx=false}.
 */
final class LimiterConnection implements AutoCloseable {

    private final long pid;
    private final JmxAddress remote;
    private final JMXConnector connector;
    private final LimiterMBeans mbeans;

    private LimiterConnection(long pid, JmxAddress remote, JMXConnector connector, LimiterMBeans mbeans) {
        this.pid = pid;
        this.remote = remote;
        this.connector = connector;
        this.mbeans = mbeans;
    }

    /** {@code remote}: the {@code --jmx} address, or null to attach to {@code pid} on this machine. */
    static LimiterConnection open(long pid, JmxAddress remote) throws CliFailure {
        return remote == null ? open(pid) : open(remote);
    }

    static LimiterConnection open(long pid) throws CliFailure {
        AttachApi.require();
        String agentJar;
        JMXConnector connector;
        try (TargetJvm target = TargetJvm.attach(pid)) {
            agentJar = AgentPresence.loadedJar(target.systemProperties(), target.jvmArguments());
            connector = target.connectJmx();
        }
        try {
            LimiterMBeans mbeans = new LimiterMBeans(connector.getMBeanServerConnection());
            if (!mbeans.limiterRegistered()) {
                throw notRegistered(pid, agentJar);
            }
            return new LimiterConnection(pid, null, connector, mbeans);
        } catch (IOException e) {
            close(connector);
            throw AttachErrors.talkFailed(pid, "read its MBeans", e, TargetJvm.alive(pid));
        } catch (CliFailure e) {
            close(connector);
            throw e;
        }
    }

    private static LimiterConnection open(JmxAddress remote) throws CliFailure {
        JMXConnector connector = RemoteJmx.connect(remote);
        try {
            LimiterMBeans mbeans = new LimiterMBeans(connector.getMBeanServerConnection());
            long pid = RemoteJmx.pid(connector.getMBeanServerConnection());
            if (!mbeans.limiterRegistered()) {
                throw new CliFailure(ExitCode.NO_LIMITER, "pid " + pid + " at " + remote + " has no dev.limiter "
                        + "MBeans: it runs no limiter (start it with -javaagent:limiter.jar=rules.yml), or the agent "
                        + "registers them after the first request (at the latest 10 s after start), or never with "
                        + "-Dlimiter.jmx=false");
            }
            return new LimiterConnection(pid, remote, connector, mbeans);
        } catch (IOException e) {
            close(connector);
            throw RemoteJmx.failed(remote, e);
        } catch (CliFailure e) {
            close(connector);
            throw e;
        }
    }

    static CliFailure notRegistered(long pid, String agentJar) {
        if (agentJar == null) {
            return new CliFailure(ExitCode.NO_LIMITER, "pid " + pid + " runs no limiter (no dev.limiter MBeans, no "
                    + "agent loaded). Load it with: java -jar limiter.jar attach " + pid + " rules.yml");
        }
        return new CliFailure(ExitCode.NO_LIMITER, "pid " + pid + " runs the limiter (" + agentJar + ") but its "
                + "MBeans are not registered: the agent registers them after the application's first request (at "
                + "the latest 10 s after start), or never with -Dlimiter.jmx=false. Try again in a few seconds.");
    }

    /**
     * What to tell when talking failed after the connection was made: the local JVM has exited, or the remote one
     * stopped answering, or it refused what was asked.
     */
    CliFailure failed(String what, Exception error) {
        if (remote == null) {
            return AttachErrors.talkFailed(pid, what, error, TargetJvm.alive(pid));
        }
        if (error instanceof IOException) {
            return RemoteJmx.failed(remote, error);
        }
        return new CliFailure(ExitCode.FAILED, "pid " + pid + " at " + remote + ": cannot " + what + ": " + error,
                error);
    }

    long pid() {
        return pid;
    }

    LimiterMBeans mbeans() {
        return mbeans;
    }

    @Override
    public void close() {
        close(connector);
    }

    private static void close(JMXConnector connector) {
        try {
            connector.close();
        } catch (IOException e) {
            // the JVM may be gone: nothing to release on our side
        }
    }
}
