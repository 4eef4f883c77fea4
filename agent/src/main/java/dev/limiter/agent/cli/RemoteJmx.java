package dev.limiter.agent.cli;

import java.io.Console;
import java.io.IOException;
import java.net.ConnectException;
import java.net.UnknownHostException;
import java.rmi.NotBoundException;
import java.rmi.registry.LocateRegistry;
import java.rmi.registry.Registry;
import java.util.HashMap;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.management.JMException;
import javax.management.MBeanServerConnection;
import javax.management.ObjectName;
import javax.management.remote.JMXConnector;
import javax.management.remote.JMXConnectorFactory;
import javax.management.remote.rmi.RMIConnector;
import javax.management.remote.rmi.RMIServer;
import javax.net.ssl.SSLException;

/**
 * Connects to a remote JMX connector ({@code --jmx}): the JDK's own, started in the application with
 * {@code -Dcom.sun.management.jmxremote.port=PORT} and its {@code com.sun.management.jmxremote.*} options, or any
 * other. Nothing here needs {@code jdk.attach}, so it works from a JRE. Authentication is the connector's:
 * {@code --jmx-user} sends a user and password as {@code jmx.remote.credentials}; TLS is the JDK's, configured on
 * this command's JVM with {@code -Djavax.net.ssl.trustStore=...} (and a key store for client authentication).
 * Every failure becomes a sentence with {@link ExitCode#JMX_UNREACHABLE}.
 */
final class RemoteJmx {

    static final String PASSWORD_VARIABLE = "LIMITER_JMX_PASSWORD";
    private static final Pattern REGISTRY_URL = Pattern.compile(
            "service:jmx:rmi:///jndi/rmi://(\\[[^\\]/]+\\]|[^:/\\[\\]]+):([0-9]{1,5})/([^/]+)");
    private static final ObjectName RUNTIME = LimiterMBeans.name("java.lang:type=Runtime");

    private RemoteJmx() {
    }

    static JMXConnector connect(JmxAddress address) throws CliFailure {
        Map<String, Object> environment = new HashMap<>();
        if (address.user() != null) {
            environment.put(JMXConnector.CREDENTIALS, new String[] {address.user(), password(address)});
        }
        // RMI and JNDI resolve classes through the context loader; the CLI's is the isolated agent loader
        Thread thread = Thread.currentThread();
        ClassLoader context = thread.getContextClassLoader();
        thread.setContextClassLoader(ClassLoader.getSystemClassLoader());
        try {
            Matcher registry = REGISTRY_URL.matcher(address.url().toString());
            if (registry.matches()) {
                return connectThroughRegistry(registry.group(1), Integer.parseInt(registry.group(2)),
                        registry.group(3), environment);
            }
            return JMXConnectorFactory.connect(address.url(), environment);
        } catch (IOException | NotBoundException | RuntimeException e) {
            throw failed(address, e);
        } finally {
            thread.setContextClassLoader(context);
        }
    }

    /**
     * {@code service:jmx:rmi:///jndi/rmi://HOST:PORT/NAME}, the JDK agent's URL, without JNDI: its {@code rmi:}
     * provider (module {@code jdk.naming.rmi}) is missing from most jlink images, where this command runs too.
     * The registry's stub names the connector's port (and brings the connector's TLS, if any).
     */
    private static JMXConnector connectThroughRegistry(String host, int port, String name,
            Map<String, Object> environment) throws IOException, NotBoundException {
        Registry registry = LocateRegistry.getRegistry(host.startsWith("[") ? host.substring(1, host.length() - 1)
                : host, port);
        if (!(registry.lookup(name) instanceof RMIServer server)) {
            throw new IOException("the RMI registry at " + host + ":" + port + " holds no JMX connector as " + name);
        }
        JMXConnector connector = new RMIConnector(server, environment);
        connector.connect(environment);
        return connector;
    }

    /** The remote JVM's pid ({@code RuntimeMXBean.getPid()}), or 0 if it does not say. */
    static long pid(MBeanServerConnection server) {
        try {
            return server.getAttribute(RUNTIME, "Pid") instanceof Long pid ? pid : 0;
        } catch (IOException | JMException | RuntimeException e) {
            return 0;
        }
    }

    private static String password(JmxAddress address) throws CliFailure {
        String password = System.getenv(PASSWORD_VARIABLE);
        if (password != null) {
            return password;
        }
        Console console = System.console();
        char[] typed = console == null ? null : console.readPassword("JMX password for %s at %s: ", address.user(),
                address.url());
        if (typed == null) {
            throw new CliFailure(ExitCode.USAGE, JmxAddress.USER_OPTION + " " + address.user() + ": set "
                    + PASSWORD_VARIABLE + " (there is no terminal to ask for the password on)");
        }
        return new String(typed);
    }

    static CliFailure failed(JmxAddress address, Exception error) {
        String where = address.url().toString();
        if (error instanceof SecurityException) {
            return new CliFailure(ExitCode.JMX_UNREACHABLE, where + " refused the connection: " + error.getMessage()
                    + (address.user() == null ? " (it wants a user: --jmx-user NAME, password in "
                    + PASSWORD_VARIABLE + ")" : " (check --jmx-user and " + PASSWORD_VARIABLE + ")"), error);
        }
        if (causedBy(error, SSLException.class)) {
            return new CliFailure(ExitCode.JMX_UNREACHABLE, where + ": the TLS handshake failed (" + error
                    + "); give this command the trust store that holds the application's certificate: "
                    + "java -Djavax.net.ssl.trustStore=FILE -Djavax.net.ssl.trustStorePassword=... -jar limiter.jar "
                    + "...", error);
        }
        if (error instanceof NotBoundException) {
            return new CliFailure(ExitCode.JMX_UNREACHABLE, where + ": the RMI registry there has no JMX connector "
                    + "of that name (" + error.getMessage() + ")", error);
        }
        if (causedBy(error, UnknownHostException.class) || causedBy(error, ConnectException.class)) {
            return new CliFailure(ExitCode.JMX_UNREACHABLE, "nothing answers at " + where + " (" + rootCause(error)
                    + "): start the application with -Dcom.sun.management.jmxremote.port=PORT (docs/cli.md, "
                    + "\"Over the network\"), and check the host, the port and the firewall", error);
        }
        return new CliFailure(ExitCode.JMX_UNREACHABLE, "cannot talk to " + where + ": " + error, error);
    }

    private static boolean causedBy(Throwable error, Class<? extends Throwable> type) {
        for (Throwable each = error; each != null; each = each.getCause() == each ? null : each.getCause()) {
            if (type.isInstance(each)) {
                return true;
            }
        }
        return false;
    }

    private static Throwable rootCause(Throwable error) {
        Throwable root = error;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root;
    }
}
