package dev.limiter.rules.match;

import java.util.Locale;

/**
 * Where an {@code http-client:} rule's calls go: a host glob ({@code api.partner.com}, {@code *.partner.com},
 * {@code **.partner.com}; {@code *} stays within one dotted label, as in {@link NameGlob}), and optionally a port
 * and a scheme. Hosts compare without regard to case, as DNS names do.
 */
public final class HostMatch {

    /** No port given: any port. */
    public static final int ANY_PORT = -1;

    private final NameGlob host;
    private final int port;
    private final String scheme;

    /**
     * @param host   the host glob, lower-cased here
     * @param port   the port, or {@link #ANY_PORT}
     * @param scheme {@code http} or {@code https}, or null for either
     */
    public HostMatch(String host, int port, String scheme) {
        this.host = NameGlob.compile(host.toLowerCase(Locale.ROOT));
        this.port = port;
        this.scheme = scheme;
    }

    /**
     * True if a call to {@code host} on {@code port} over {@code scheme} goes where this match names. {@code port}
     * is the URI's, or -1 when the URI gives none (then the scheme's default port counts). Allocation-free unless
     * {@code host} has upper-case letters.
     */
    public boolean matches(String scheme, String host, int port) {
        if (host == null || this.scheme != null && !this.scheme.equalsIgnoreCase(scheme)) {
            return false;
        }
        if (this.port != ANY_PORT && this.port != (port >= 0 ? port : defaultPort(scheme))) {
            return false;
        }
        return this.host.matches(host.toLowerCase(Locale.ROOT));
    }

    private static int defaultPort(String scheme) {
        return "https".equalsIgnoreCase(scheme) ? 443 : "http".equalsIgnoreCase(scheme) ? 80 : ANY_PORT;
    }

    /** The host glob as written (lower case). */
    public String host() {
        return host.pattern();
    }

    /** The port, or {@link #ANY_PORT}. */
    public int port() {
        return port;
    }

    /** The scheme, or null for either. */
    public String scheme() {
        return scheme;
    }

    @Override
    public String toString() {
        return (scheme == null ? "" : scheme + "://") + host.pattern() + (port == ANY_PORT ? "" : ":" + port);
    }
}
