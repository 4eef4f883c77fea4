package dev.limiter.agent.cli;

import java.io.IOException;
import javax.management.remote.JMXConnector;

/**
 * A JMX connection to the limiter in another JVM: attach, start (or find) the JDK's local connector, detach,
 * connect, and check that {@code dev.limiter:type=Limiter} is there. When it is not, says why: no limiter in that
 * JVM (then how to load one), or the agent is loaded but has not registered its MBeans yet (it waits for the
 * first request, at most 10 s) or runs with {@code -Dlimiter.jmx=false}.
 */
final class LimiterConnection implements AutoCloseable {

    private final long pid;
    private final JMXConnector connector;
    private final LimiterMBeans mbeans;

    private LimiterConnection(long pid, JMXConnector connector, LimiterMBeans mbeans) {
        this.pid = pid;
        this.connector = connector;
        this.mbeans = mbeans;
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
            return new LimiterConnection(pid, connector, mbeans);
        } catch (IOException e) {
            close(connector);
            throw AttachErrors.talkFailed(pid, "read its MBeans", e, TargetJvm.alive(pid));
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
