package dev.limiter.it.harness;

import com.sun.tools.attach.VirtualMachine;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.UUID;
import javax.management.MBeanServerConnection;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.JMXServiceURL;

/**
 * A JMX connection to a forked server the way JConsole makes one to a local process: Attach API,
 * {@code startLocalManagementAgent()}, then the local-only connector address it returns. No port, no
 * {@code com.sun.management.jmxremote} option on the server: what an operator gets from any local console.
 *
 * <p>The server's pid is found among this JVM's child processes by a unique marker system property passed on
 * its command line ({@link #markerOption()}), because the harness does not expose the process.
 */
public final class AttachedJmx implements AutoCloseable {

    private final JMXConnector connector;

    private AttachedJmx(JMXConnector connector) {
        this.connector = connector;
    }

    /** A {@code -D} option that makes a forked JVM findable; pass the same value to {@link #attach}. */
    public static String newMarker() {
        return UUID.randomUUID().toString();
    }

    public static String markerOption(String marker) {
        return "-Dlimiter.it.marker=" + marker;
    }

    /** Attaches to the child JVM started with {@code markerOption(marker)}. */
    public static AttachedJmx attach(String marker) {
        long pid = childPid(markerOption(marker));
        try {
            VirtualMachine vm = VirtualMachine.attach(Long.toString(pid));
            String address;
            try {
                address = vm.startLocalManagementAgent();
            } finally {
                vm.detach();
            }
            return new AttachedJmx(JMXConnectorFactory.connect(new JMXServiceURL(address)));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot attach to pid " + pid, e);
        } catch (Exception e) {
            throw new IllegalStateException("cannot attach to pid " + pid, e);
        }
    }

    /** The pid of the child JVM started with {@code markerOption(marker)}. */
    public static long pidOf(String marker) {
        return childPid(markerOption(marker));
    }

    private static long childPid(String option) {
        List<ProcessHandle> matches = ProcessHandle.current().children()
                .filter(p -> p.info().commandLine().map(c -> c.contains(option)).orElse(false))
                .toList();
        if (matches.size() != 1) {
            throw new IllegalStateException(matches.size() + " child processes carry " + option);
        }
        return matches.get(0).pid();
    }

    public MBeanServerConnection connection() {
        try {
            return connector.getMBeanServerConnection();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public void close() {
        try {
            connector.close();
        } catch (IOException ignored) {
            // the server may already be gone
        }
    }
}
