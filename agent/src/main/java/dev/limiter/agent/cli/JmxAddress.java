package dev.limiter.agent.cli;

import java.net.MalformedURLException;
import java.util.List;
import javax.management.remote.JMXServiceURL;

/**
 * {@code --jmx URL|HOST:PORT} (and {@code --jmx-user NAME}): a JVM reached over its remote JMX connector instead
 * of the Attach API, for a JVM on another host or in another container, or on a runtime without
 * {@code jdk.attach} (a JRE, a jlink image, a distroless image). {@code HOST:PORT} is the port of
 * {@code -Dcom.sun.management.jmxremote.port}, i.e. {@code service:jmx:rmi:///jndi/rmi://HOST:PORT/jmxrmi}; any
 * other connector is given as its full {@code service:jmx:} URL. The password of {@code --jmx-user} is never an
 * argument (other users see arguments in the process table): it comes from {@code LIMITER_JMX_PASSWORD}, or is
 * asked on the terminal ({@link RemoteJmx}).
 */
record JmxAddress(JMXServiceURL url, String user) {

    static final String OPTION = "--jmx";
    static final String USER_OPTION = "--jmx-user";

    /**
     * Removes {@code --jmx X}, {@code --jmx=X}, {@code --jmx-user X} and {@code --jmx-user=X} from {@code args}
     * (from index 1: index 0 is the command); returns the address, or null when {@code --jmx} is absent.
     */
    static JmxAddress extract(List<String> args) throws CliFailure {
        String address = take(args, OPTION);
        String user = take(args, USER_OPTION);
        if (address == null) {
            if (user != null) {
                throw new CliFailure(ExitCode.USAGE, USER_OPTION + " goes with " + OPTION + " HOST:PORT");
            }
            return null;
        }
        return new JmxAddress(url(address), user);
    }

    private static String take(List<String> args, String option) throws CliFailure {
        String value = null;
        for (int i = 1; i < args.size(); i++) {
            String arg = args.get(i);
            String found;
            if (arg.equals(option)) {
                if (i + 1 >= args.size()) {
                    throw new CliFailure(ExitCode.USAGE, option + " needs a value");
                }
                found = args.remove(i + 1);
                args.remove(i--);
            } else if (arg.startsWith(option + "=")) {
                found = arg.substring(option.length() + 1);
                args.remove(i--);
            } else {
                continue;
            }
            if (value != null) {
                throw new CliFailure(ExitCode.USAGE, option + " is given twice");
            }
            value = found;
        }
        return value;
    }

    /** {@code service:jmx:...} as is; {@code HOST:PORT} (IPv6 as {@code [::1]:PORT}) as the JDK agent's RMI URL. */
    static JMXServiceURL url(String text) throws CliFailure {
        String trimmed = text.trim();
        try {
            if (trimmed.startsWith("service:jmx:")) {
                return new JMXServiceURL(trimmed);
            }
            int colon = trimmed.lastIndexOf(':');
            if (colon > 0 && isPort(trimmed.substring(colon + 1))) {
                String host = trimmed.substring(0, colon);
                boolean bracketed = host.startsWith("[") && host.endsWith("]");
                if (!host.isEmpty() && (bracketed || host.indexOf(':') < 0)) {
                    return new JMXServiceURL("service:jmx:rmi:///jndi/rmi://" + host + ":"
                            + trimmed.substring(colon + 1) + "/jmxrmi");
                }
            }
        } catch (MalformedURLException e) {
            throw new CliFailure(ExitCode.USAGE, "'" + text + "' is not a JMX service URL: " + e.getMessage());
        }
        throw new CliFailure(ExitCode.USAGE, "--jmx takes HOST:PORT (the application's "
                + "-Dcom.sun.management.jmxremote.port) or a service:jmx: URL, not '" + text + "'");
    }

    private static boolean isPort(String text) {
        if (text.isEmpty() || text.length() > 5 || !text.chars().allMatch(Character::isDigit)) {
            return false;
        }
        int port = Integer.parseInt(text);
        return port > 0 && port < 65_536;
    }

    @Override
    public String toString() {
        return url.toString();
    }
}
