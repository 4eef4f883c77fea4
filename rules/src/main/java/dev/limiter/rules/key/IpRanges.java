package dev.limiter.rules.key;

import java.util.List;

/**
 * A set of CIDR ranges ({@code 10.0.0.0/8}, {@code 2001:db8::/32}, or single addresses), compiled once into
 * 128-bit network/mask pairs so a membership test parses the address in place and allocates nothing. IPv4 lives
 * in the IPv4-mapped part of the IPv6 space, so one test covers both families. Trusted proxies and the
 * {@code ips:} conditions of rules are both such sets.
 */
public final class IpRanges {

    /** No range: contains nothing. */
    public static final IpRanges NONE = new IpRanges(List.of());

    private final List<String> cidrs;
    private final long[] networkHigh;
    private final long[] networkLow;
    private final long[] maskHigh;
    private final long[] maskLow;

    private IpRanges(List<String> cidrs) {
        int count = cidrs.size();
        this.cidrs = List.copyOf(cidrs);
        this.networkHigh = new long[count];
        this.networkLow = new long[count];
        this.maskHigh = new long[count];
        this.maskLow = new long[count];
        for (int i = 0; i < count; i++) {
            String cidr = cidrs.get(i);
            int slash = cidr.indexOf('/');
            String address = slash < 0 ? cidr : cidr.substring(0, slash);
            int bits = prefixBits(cidr);
            maskHigh[i] = highMask(bits);
            maskLow[i] = lowMask(bits);
            networkHigh[i] = IpAddress.high(address, 0, address.length()) & maskHigh[i];
            networkLow[i] = IpAddress.low(address, 0, address.length()) & maskLow[i];
        }
    }

    /**
     * The ranges of {@code cidrs}.
     *
     * @throws IllegalArgumentException naming the first bad CIDR, with a message fit for a rules error
     */
    public static IpRanges of(List<String> cidrs) {
        for (String cidr : cidrs) {
            String problem = problem(cidr);
            if (problem != null) {
                throw new IllegalArgumentException(problem);
            }
        }
        return cidrs.isEmpty() ? NONE : new IpRanges(cidrs);
    }

    /** Why {@code cidr} is not a valid CIDR, or null if it is. */
    public static String problem(String cidr) {
        int slash = cidr.indexOf('/');
        String address = slash < 0 ? cidr : cidr.substring(0, slash);
        if (!IpAddress.isValid(address, 0, address.length()) || address.indexOf('%') >= 0) {
            return "'" + cidr + "' is not a CIDR: '" + address + "' is not an IPv4 or IPv6 address";
        }
        boolean v4 = IpAddress.isV4(address, 0, address.length());
        int max = v4 ? 32 : 128;
        if (slash >= 0) {
            String prefix = cidr.substring(slash + 1);
            boolean digits = !prefix.isEmpty() && prefix.length() <= 3;
            for (int i = 0; i < prefix.length() && digits; i++) {
                digits = prefix.charAt(i) >= '0' && prefix.charAt(i) <= '9';
            }
            if (!digits || Integer.parseInt(prefix) > max) {
                return "'" + cidr + "' is not a CIDR: the prefix length must be a number from 0 to " + max;
            }
            int bits = prefixBits(cidr);
            long high = IpAddress.high(address, 0, address.length());
            long low = IpAddress.low(address, 0, address.length());
            if ((high & ~highMask(bits)) != 0 || (low & ~lowMask(bits)) != 0) {
                return "'" + cidr + "' has bits set after the /" + prefix + " prefix: write the network address";
            }
        }
        return null;
    }

    /** The CIDRs as written. */
    public List<String> cidrs() {
        return cidrs;
    }

    public boolean isEmpty() {
        return networkHigh.length == 0;
    }

    /** True if {@code address} (bare, or {@code [v6]} in brackets) is inside one of the ranges; false if null. */
    public boolean contains(String address) {
        if (address == null) {
            return false;
        }
        int start = 0;
        int end = address.length();
        if (end >= 2 && address.charAt(0) == '[' && address.charAt(end - 1) == ']') {
            start = 1;
            end--;
        }
        return contains(address, start, end);
    }

    /** True if the address in {@code s[start, end)} is inside one of the ranges. */
    boolean contains(String s, int start, int end) {
        if (networkHigh.length == 0 || !IpAddress.isValid(s, start, end)) {
            return false;
        }
        long high = IpAddress.high(s, start, end);
        long low = IpAddress.low(s, start, end);
        for (int i = 0; i < networkHigh.length; i++) {
            if ((high & maskHigh[i]) == networkHigh[i] && (low & maskLow[i]) == networkLow[i]) {
                return true;
            }
        }
        return false;
    }

    /** Prefix length in the 128-bit space (IPv4 prefixes are offset by 96). Input already validated. */
    private static int prefixBits(String cidr) {
        int slash = cidr.indexOf('/');
        String address = slash < 0 ? cidr : cidr.substring(0, slash);
        boolean v4 = IpAddress.isV4(address, 0, address.length());
        int bits = slash < 0 ? (v4 ? 32 : 128) : Integer.parseInt(cidr.substring(slash + 1));
        return v4 ? 96 + bits : bits;
    }

    /** The upper 64 bits of a 128-bit network mask of {@code bits} leading ones. */
    static long highMask(int bits) {
        return bits >= 64 ? -1L : bits == 0 ? 0 : -1L << (64 - bits);
    }

    /** The lower 64 bits of a 128-bit network mask of {@code bits} leading ones. */
    static long lowMask(int bits) {
        return bits <= 64 ? 0 : bits == 128 ? -1L : -1L << (128 - bits);
    }

    @Override
    public String toString() {
        return String.join(", ", cidrs);
    }
}
