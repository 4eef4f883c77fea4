package dev.limiter.rules;

/**
 * How the limiter publishes its metrics beyond JMX, as the rules file's top-level {@code metrics:} section says.
 *
 * <p>A plain value (no socket): the agent opens the endpoint. The same {@code HOST:PORT} spelling is accepted
 * from the agent argument {@code prometheus=}, so both are checked by {@link #listenProblem(String)}.
 *
 * @param prometheusListen {@code HOST:PORT} of the Prometheus endpoint, or null for none (the default: no port
 *                         is opened unless asked)
 */
public record MetricsSpec(String prometheusListen) {

    /** No endpoint: the default. */
    public static final MetricsSpec NONE = new MetricsSpec(null);

    /** True when a Prometheus endpoint is asked for. */
    public boolean prometheus() {
        return prometheusListen != null;
    }

    /**
     * Why {@code listen} is not a {@code HOST:PORT} to bind, or null. The host is a name, an IPv4 address or an
     * IPv6 address in brackets ({@code [::1]:9464}); the port 0 to 65535 (0: any free port, logged).
     */
    public static String listenProblem(String listen) {
        if (listen == null || listen.isBlank()) {
            return "is empty: write HOST:PORT, e.g. 127.0.0.1:9464";
        }
        if (listen.length() > 300) {
            return "is longer than 300 characters: write HOST:PORT, e.g. 127.0.0.1:9464";
        }
        int colon = listen.lastIndexOf(':');
        if (colon <= 0 || colon == listen.length() - 1) {
            return "'" + listen + "' is not HOST:PORT (e.g. 127.0.0.1:9464)";
        }
        String host = listen.substring(0, colon);
        String port = listen.substring(colon + 1);
        if (host.startsWith("[") != host.endsWith("]") || !host.startsWith("[") && host.indexOf(':') >= 0) {
            return "'" + listen + "': write an IPv6 host in brackets, e.g. [::1]:9464";
        }
        if (host.startsWith("[") && host.length() == 2) {
            return "'" + listen + "' has an empty host";
        }
        for (int i = 0; i < host.length(); i++) {
            char c = host.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.'
                    || c == '-' || c == ':' || c == '[' || c == ']' || c == '_';
            if (!ok) {
                return "'" + listen + "': the host may hold letters, digits, '.', '-', or an IPv6 address in"
                        + " brackets";
            }
        }
        if (port.length() > 5) {
            return "'" + listen + "': the port must be from 0 to 65535";
        }
        for (int i = 0; i < port.length(); i++) {
            if (port.charAt(i) < '0' || port.charAt(i) > '9') {
                return "'" + listen + "': the port must be a number from 0 to 65535";
            }
        }
        if (Integer.parseInt(port) > 65_535) {
            return "'" + listen + "': the port must be from 0 to 65535";
        }
        return null;
    }

    /** The host part of a valid {@code listen}, brackets removed. */
    public static String host(String listen) {
        String host = listen.substring(0, listen.lastIndexOf(':'));
        return host.startsWith("[") ? host.substring(1, host.length() - 1) : host;
    }

    /** The port of a valid {@code listen}. */
    public static int port(String listen) {
        return Integer.parseInt(listen.substring(listen.lastIndexOf(':') + 1));
    }
}
