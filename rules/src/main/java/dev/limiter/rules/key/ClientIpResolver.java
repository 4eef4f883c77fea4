package dev.limiter.rules.key;

import java.util.List;

/**
 * Decides which address a request counts against for {@code key: ip}.
 *
 * <p>The constraint is trust, not parsing: {@code X-Forwarded-For} and {@code Forwarded} are written by whoever
 * sends the request, so believing them from anyone lets every client choose its own key and walk around its
 * limit (Spring Cloud Gateway, CVE-2025-41235). So: the connection's peer address is the client, unless the
 * peer is one of the configured trusted proxies; then the forwarding header is read from the right (the end
 * the proxies append to) and the first address that is not itself a trusted proxy is the client. Anything
 * further left was written by the client and is ignored.
 *
 * <p>Only the one header named in {@code client-ip.header} is read: if the proxy writes {@code
 * X-Forwarded-For}, a client-sent {@code Forwarded} passes through it untouched and must not be believed.
 *
 * <p>Request path: allocation-free when the peer is not a trusted proxy (the usual case without proxies); with
 * a proxy, only the returned substring is allocated.
 *
 * <p>The key of an IPv6 client is its network, not its address ({@link #key}): one host commonly holds a whole
 * /64 and can take a fresh address from it for every request, so keying by address would give it a fresh budget
 * each time.
 */
public final class ClientIpResolver {

    /** The forwarding header a trusted proxy writes. */
    public enum Header {
        X_FORWARDED_FOR("x-forwarded-for"), FORWARDED("forwarded");

        private final String spelling;

        Header(String spelling) {
            this.spelling = spelling;
        }

        /** How the header is named in the rules file. */
        public String spelling() {
            return spelling;
        }
    }

    /** The IPv6 prefix length clients are keyed by unless {@code client-ip.ipv6-prefix} says otherwise. */
    public static final int DEFAULT_IPV6_PREFIX = 64;
    /** The shortest allowed {@code ipv6-prefix}: shorter would put unrelated sites into one budget. */
    public static final int MIN_IPV6_PREFIX = 32;
    /** The longest allowed {@code ipv6-prefix}: one key per address. */
    public static final int MAX_IPV6_PREFIX = 128;

    /** Trusts nobody: the peer address is always the client. */
    public static final ClientIpResolver PEER_ONLY = new ClientIpResolver(IpRanges.NONE, Header.X_FORWARDED_FOR,
            DEFAULT_IPV6_PREFIX);

    /**
     * Per thread, the last IPv6 text keyed and its key: a client's repeated requests allocate nothing. A subclass,
     * not {@code withInitial(LastKey::new)}: no lambda to spin while the application starts.
     */
    private static final ThreadLocal<LastKey> LAST_KEY = new ThreadLocal<>() {
        @Override
        protected LastKey initialValue() {
            return new LastKey();
        }
    };

    private static final class LastKey {
        String input;
        int prefix;
        String key;
    }

    private final IpRanges trusted;
    private final Header header;
    private final int ipv6Prefix;
    private final long keyMaskHigh;
    private final long keyMaskLow;
    private final String keySuffix;

    private ClientIpResolver(IpRanges trusted, Header header, int ipv6Prefix) {
        this.trusted = trusted;
        this.header = header;
        this.ipv6Prefix = ipv6Prefix;
        this.keyMaskHigh = IpRanges.highMask(ipv6Prefix);
        this.keyMaskLow = IpRanges.lowMask(ipv6Prefix);
        this.keySuffix = ipv6Prefix == 128 ? "" : "/" + ipv6Prefix;
    }

    /**
     * A resolver trusting the given CIDRs ({@code 10.0.0.0/8}, {@code fd00::/8}, or a single address).
     *
     * @throws IllegalArgumentException naming the first bad CIDR, with a message fit for a rules error
     */
    public static ClientIpResolver create(List<String> trustedProxies, Header header) {
        return create(trustedProxies, header, DEFAULT_IPV6_PREFIX);
    }

    /**
     * A resolver trusting the given CIDRs that keys IPv6 clients by their first {@code ipv6Prefix} bits.
     *
     * @throws IllegalArgumentException naming the first bad CIDR or a prefix outside {@value #MIN_IPV6_PREFIX}
     *     to {@value #MAX_IPV6_PREFIX}
     */
    public static ClientIpResolver create(List<String> trustedProxies, Header header, int ipv6Prefix) {
        if (ipv6Prefix < MIN_IPV6_PREFIX || ipv6Prefix > MAX_IPV6_PREFIX) {
            throw new IllegalArgumentException("ipv6-prefix must be from " + MIN_IPV6_PREFIX + " to "
                    + MAX_IPV6_PREFIX + ", not " + ipv6Prefix);
        }
        return new ClientIpResolver(IpRanges.of(trustedProxies), header, ipv6Prefix);
    }

    /** Why {@code cidr} is not a valid CIDR, or null if it is. */
    public static String cidrProblem(String cidr) {
        return IpRanges.problem(cidr);
    }

    /** The CIDRs as written. */
    public List<String> trustedProxies() {
        return trusted.cidrs();
    }

    /** The forwarding header this resolver reads. */
    public Header header() {
        return header;
    }

    /** The prefix length IPv6 clients are keyed by. */
    public int ipv6Prefix() {
        return ipv6Prefix;
    }

    /**
     * The {@code key: ip} value of a client address (as returned by {@link #resolve}).
     *
     * <p>IPv4 text (no colon), including names and obfuscated identifiers, is returned as it is, without any
     * work. An IPv4-mapped IPv6 address ({@code ::ffff:1.2.3.4}) becomes its IPv4 address, so it shares the
     * budget of the same client seen over IPv4. Any other IPv6 address (brackets and {@code %zone} ignored) is
     * masked to {@link #ipv6Prefix} bits and written in one canonical text, so every spelling of every address
     * of one network gives the same key: {@code 2001:db8:1:2::/64}, or the compressed address alone for a
     * prefix of 128. Text that does not parse is returned as it is.
     *
     * <p>Allocation-free for IPv4 and for the same IPv6 text as this thread's previous call.
     */
    public String key(String address) {
        if (address == null || address.indexOf(':') < 0) {
            return address;
        }
        LastKey last = LAST_KEY.get();
        if (last.prefix == ipv6Prefix && address.equals(last.input)) {
            return last.key;
        }
        int start = 0;
        int end = address.length();
        if (end >= 2 && address.charAt(0) == '[' && address.charAt(end - 1) == ']') {
            start = 1;
            end--;
        }
        String key;
        if (!IpAddress.isValid(address, start, end)) {
            key = address;
        } else {
            long high = IpAddress.high(address, start, end);
            long low = IpAddress.low(address, start, end);
            key = IpAddress.isV4Mapped(high, low) ? IpAddress.formatV4(low)
                    : IpAddress.formatV6(high & keyMaskHigh, low & keyMaskLow, keySuffix);
        }
        last.input = address;
        last.prefix = ipv6Prefix;
        last.key = key;
        return key;
    }

    /**
     * The client address of a request.
     *
     * @param peerAddress   the connection's remote address ({@code getRemoteAddr()})
     * @param xForwardedFor the {@code X-Forwarded-For} header (several header lines joined with {@code ,}), or null
     * @param forwarded     the {@code Forwarded} header (likewise), or null
     * @return the peer itself unless it is a trusted proxy; then the right-most forwarded address that is not a
     *     trusted proxy (an obfuscated identifier like {@code _hidden} or {@code unknown} is returned as written);
     *     if every forwarded address is a trusted proxy, the left-most one; the peer if the header is missing
     *     or names no address
     */
    public String resolve(String peerAddress, String xForwardedFor, String forwarded) {
        if (trusted.isEmpty() || peerAddress == null || !isTrusted(peerAddress)) {
            return peerAddress;
        }
        String value = header == Header.FORWARDED ? forwarded : xForwardedFor;
        if (value == null) {
            return peerAddress;
        }
        int leftmostStart = -1;
        int leftmostEnd = -1;
        int elementEnd = value.length();
        while (elementEnd > 0) {
            int elementStart = header == Header.FORWARDED ? forwardedElementStart(value, elementEnd)
                    : value.lastIndexOf(',', elementEnd - 1) + 1;
            int start;
            int end;
            if (header == Header.FORWARDED) {
                int forAt = forParameter(value, elementStart, elementEnd);
                if (forAt < 0) {
                    if (isBlank(value, elementStart, elementEnd)) {
                        elementEnd = elementStart - 1;
                        continue;
                    }
                    return peerAddress; // a proxy element without for=: the client cannot be known
                }
                start = forAt;
                end = parameterEnd(value, forAt, elementEnd);
            } else {
                start = elementStart;
                end = elementEnd;
            }
            start = skipSpace(value, start, end);
            end = trimSpace(value, start, end);
            if (end - start >= 2 && value.charAt(start) == '"' && value.charAt(end - 1) == '"') {
                start++;
                end--;
            }
            if (start < end) {
                int addressEnd = addressEnd(value, start, end);
                int addressStart = value.charAt(start) == '[' ? start + 1 : start;
                if (!trusted.contains(value, addressStart, addressEnd)) {
                    return value.substring(addressStart, addressEnd);
                }
                leftmostStart = addressStart;
                leftmostEnd = addressEnd;
            }
            elementEnd = elementStart - 1;
        }
        return leftmostStart < 0 ? peerAddress : value.substring(leftmostStart, leftmostEnd);
    }

    /** True if {@code address} is inside one of the trusted-proxy CIDRs. */
    public boolean isTrusted(String address) {
        return trusted.contains(address);
    }

    /** End of the address in {@code 1.2.3.4:80}, {@code [::1]:80}, {@code [::1]} or a bare address. */
    private static int addressEnd(String s, int start, int end) {
        if (s.charAt(start) == '[') {
            int close = IpAddress.indexOf(s, ']', start, end);
            return close < 0 ? end : close;
        }
        int colon = IpAddress.indexOf(s, ':', start, end);
        if (colon >= 0 && IpAddress.indexOf(s, ':', colon + 1, end) < 0) {
            return colon; // exactly one colon: IPv4 (or a name) with a port
        }
        return end;
    }

    /** Start of the Forwarded element that ends at {@code end}: after the previous comma outside quotes. */
    private static int forwardedElementStart(String s, int end) {
        boolean quoted = false;
        for (int i = end - 1; i >= 0; i--) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ',' && !quoted) {
                return i + 1;
            }
        }
        return 0;
    }

    /** Index of the value of the element's {@code for=} parameter (case-insensitive name), or -1. */
    private static int forParameter(String s, int start, int end) {
        int i = start;
        while (i < end) {
            i = skipSpace(s, i, end);
            if (i + 4 <= end && s.regionMatches(true, i, "for", 0, 3)) {
                int equals = skipSpace(s, i + 3, end);
                if (equals < end && s.charAt(equals) == '=') {
                    return equals + 1;
                }
            }
            i = parameterEnd(s, i, end) + 1;
        }
        return -1;
    }

    /** End of a parameter (its {@code ;} outside quotes, or the element end). */
    private static int parameterEnd(String s, int start, int end) {
        boolean quoted = false;
        for (int i = start; i < end; i++) {
            char c = s.charAt(i);
            if (c == '"') {
                quoted = !quoted;
            } else if (c == ';' && !quoted) {
                return i;
            }
        }
        return end;
    }

    private static boolean isBlank(String s, int start, int end) {
        return skipSpace(s, start, end) == end;
    }

    private static int skipSpace(String s, int start, int end) {
        int i = start;
        while (i < end && (s.charAt(i) == ' ' || s.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }

    private static int trimSpace(String s, int start, int end) {
        int i = end;
        while (i > start && (s.charAt(i - 1) == ' ' || s.charAt(i - 1) == '\t')) {
            i--;
        }
        return i;
    }
}
