package dev.limiter.agent.cli;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.util.Optional;
import java.util.Properties;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * Another JVM of this machine, reached through the Attach API: its properties, loading an agent into it, and the
 * JDK's local JMX connector ({@code startLocalManagementAgent()}: the connector JConsole uses for a local
 * process; it listens on the loopback only and needs no password, because only the JVM's own user can attach).
 * Every failure becomes a {@link CliFailure} with its {@link ExitCode} ({@link AttachErrors}).
 *
 * <p>Call {@link AttachApi#require()} before this class is loaded: it links against {@code jdk.attach}.
 */
final class TargetJvm implements AutoCloseable {

    /** Set by the agent in the JVM it is loaded into ({@code LimiterAgent}): the agent jar's path. */
    static final String AGENT_PROPERTY = "limiter.agent.jar";
    private static final String JVM_ARGS = "sun.jvm.args";

    private final long pid;
    private final VirtualMachine vm;

    private TargetJvm(long pid, VirtualMachine vm) {
        this.pid = pid;
        this.vm = vm;
    }

    /** Attaches to {@code pid}; {@link #close()} detaches. */
    static TargetJvm attach(long pid) throws CliFailure {
        Optional<ProcessHandle> process = ProcessHandle.of(pid);
        ProcessHandle self = ProcessHandle.current();
        AttachErrors.beforeAttach(pid, process.isPresent(),
                process.flatMap(p -> p.info().user()).orElse(null), self.info().user().orElse(null), self.pid());
        try {
            return new TargetJvm(pid, VirtualMachine.attach(Long.toString(pid)));
        } catch (Exception e) {
            throw AttachErrors.attachFailed(pid, e, alive(pid));
        }
    }

    Properties systemProperties() throws CliFailure {
        try {
            return vm.getSystemProperties();
        } catch (IOException e) {
            throw AttachErrors.talkFailed(pid, "read its system properties", e, alive(pid));
        }
    }

    /** The JVM's command-line options ({@code -javaagent:...} among them); empty if it does not say. */
    String jvmArguments() throws CliFailure {
        try {
            return vm.getAgentProperties().getProperty(JVM_ARGS, "");
        } catch (IOException e) {
            throw AttachErrors.talkFailed(pid, "read its agent properties", e, alive(pid));
        }
    }

    /** Runs {@code agentmain} of {@code jar} in the JVM; returns once it has returned. */
    void loadAgent(String jar, String arguments) throws CliFailure {
        try {
            vm.loadAgent(jar, arguments);
        } catch (AgentInitializationException e) {
            throw new CliFailure(ExitCode.FAILED, "pid " + pid + ": the agent's agentmain failed (" + e.getMessage()
                    + "); the application's log says why", e);
        } catch (AgentLoadException e) {
            throw new CliFailure(ExitCode.FAILED, "pid " + pid + " could not load " + jar + ": " + e.getMessage(), e);
        } catch (IOException e) {
            throw AttachErrors.talkFailed(pid, "load the agent", e, alive(pid));
        }
    }

    /** Starts the JDK's local JMX connector in the JVM (if not running) and connects to it. */
    JMXConnector connectJmx() throws CliFailure {
        String address;
        try {
            address = vm.startLocalManagementAgent();
        } catch (IOException e) {
            throw AttachErrors.talkFailed(pid, "start its local JMX connector", e, alive(pid));
        }
        try {
            return JMXConnectorFactory.connect(new JMXServiceURL(address));
        } catch (IOException e) {
            throw AttachErrors.talkFailed(pid, "connect to its local JMX connector " + address, e, alive(pid));
        }
    }

    static boolean alive(long pid) {
        return ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false);
    }

    @Override
    public void close() {
        try {
            vm.detach();
        } catch (IOException e) {
            // the JVM may be gone: nothing to release on our side
        }
    }
}
