package dev.limiter.rules.key;

/**
 * Parses IPv4 and IPv6 literals into a 128-bit value (two longs; IPv4 as {@code ::ffff:a.b.c.d}) in place.
 *
 * <p>Why not {@code InetAddress.getByName}: given something that is not a literal it does a DNS lookup, and it
 * allocates. This runs on the request path for requests that come through a trusted proxy, so it is
 * allocation-free; the price is that the value comes out in two calls ({@link #high}, {@link #low}), each of
 * which parses the text again (addresses are short). Strict: no leading zeros in IPv4 octets (they are octal to
 * some parsers), a zone ({@code %eth0}) is ignored, text longer than 110 characters is not an address. Every
 * scan stays inside the given range, so the cost is linear in the range, never in the whole string.
 */
final class IpAddress {

    private static final int VALID = 0;
    private static final int HIGH = 1;
    private static final int LOW = 2;
    private static final long V4_MAPPED = 0xffffL << 32;
    /** The longest text looked at: 45 characters of IPv6 with embedded IPv4, {@code %} and a 64-character zone. */
    private static final int MAX_TEXT = 45 + 1 + 64;

    private IpAddress() {
    }

    static boolean isValid(String s, int start, int end) {
        return parse(s, start, end, VALID) == 1;
    }

    /** Upper 64 bits; only meaningful if {@link #isValid}. */
    static long high(String s, int start, int end) {
        return parse(s, start, end, HIGH);
    }

    /** Lower 64 bits; only meaningful if {@link #isValid}. */
    static long low(String s, int start, int end) {
        return parse(s, start, end, LOW);
    }

    /** True if the text is an IPv4 literal (no colon). */
    static boolean isV4(String s, int start, int end) {
        return indexOf(s, ':', start, end) < 0;
    }

    /**
     * Index of {@code c} in {@code [start, end)} of {@code s}, or -1. Never looks past {@code end}: the text is
     * often one element of a long forwarding header, and {@code String.indexOf} would scan to the header's end
     * for every element (quadratic in the number of hops).
     */
    static int indexOf(String s, char c, int start, int end) {
        for (int i = start; i < end; i++) {
            if (s.charAt(i) == c) {
                return i;
            }
        }
        return -1;
    }

    private static long parse(String s, int start, int end, int want) {
        if (end - start > MAX_TEXT) {
            return 0; // longer than any address with any sane zone: not worth scanning
        }
        int percent = indexOf(s, '%', start, end);
        if (percent >= 0) {
            end = percent;
        }
        if (end - start < 2 || end - start > 45) {
            return 0;
        }
        if (isV4(s, start, end)) {
            long v4 = parseV4(s, start, end);
            if (v4 < 0) {
                return 0;
            }
            return want == VALID ? 1 : want == HIGH ? 0 : V4_MAPPED | v4;
        }
        return parseV6(s, start, end, want);
    }

    /** The IPv4 address as an unsigned 32-bit value, or -1. */
    private static long parseV4(String s, int start, int end) {
        long value = 0;
        int octets = 0;
        int i = start;
        while (i < end) {
            int digitsStart = i;
            int octet = 0;
            while (i < end && s.charAt(i) >= '0' && s.charAt(i) <= '9') {
                octet = octet * 10 + (s.charAt(i) - '0');
                i++;
                if (i - digitsStart > 3) {
                    return -1;
                }
            }
            int digits = i - digitsStart;
            if (digits == 0 || octet > 255 || digits > 1 && s.charAt(digitsStart) == '0') {
                return -1;
            }
            value = value << 8 | octet;
            octets++;
            if (i < end) {
                if (s.charAt(i) != '.' || octets == 4) {
                    return -1;
                }
                i++;
                if (i == end) {
                    return -1;
                }
            }
        }
        return octets == 4 ? value : -1;
    }

    private static long parseV6(String s, int start, int end, int want) {
        // groups before "::" go into head, after it into tail; each a 128-bit shift register (hi, lo)
        long headHi = 0;
        long headLo = 0;
        long tailHi = 0;
        long tailLo = 0;
        int headGroups = 0;
        int tailGroups = 0;
        boolean compressed = false;
        int i = start;
        if (s.startsWith("::", i)) {
            compressed = true;
            i += 2;
        } else if (s.charAt(i) == ':') {
            return 0;
        }
        while (i < end) {
            int groupStart = i;
            int group = 0;
            while (i < end && hex(s.charAt(i)) >= 0 && i - groupStart < 4) {
                group = group << 4 | hex(s.charAt(i));
                i++;
            }
            if (i < end && s.charAt(i) == '.') {
                // embedded IPv4 in the last 32 bits
                long v4 = parseV4(s, groupStart, end);
                if (v4 < 0) {
                    return 0;
                }
                for (int half = 0; half < 2; half++) {
                    int part = (int) (half == 0 ? v4 >>> 16 : v4 & 0xffff);
                    if (compressed) {
                        tailHi = tailHi << 16 | tailLo >>> 48;
                        tailLo = tailLo << 16 | part;
                        tailGroups++;
                    } else {
                        headHi = headHi << 16 | headLo >>> 48;
                        headLo = headLo << 16 | part;
                        headGroups++;
                    }
                }
                i = end;
                break;
            }
            if (i == groupStart) {
                return 0;
            }
            if (compressed) {
                tailHi = tailHi << 16 | tailLo >>> 48;
                tailLo = tailLo << 16 | group;
                tailGroups++;
            } else {
                headHi = headHi << 16 | headLo >>> 48;
                headLo = headLo << 16 | group;
                headGroups++;
            }
            if (headGroups + tailGroups > 8) {
                return 0;
            }
            if (i == end) {
                break;
            }
            if (s.charAt(i) != ':') {
                return 0;
            }
            i++;
            if (i < end && s.charAt(i) == ':') {
                if (compressed) {
                    return 0;
                }
                compressed = true;
                i++;
            } else if (i == end) {
                return 0;
            }
        }
        int groups = headGroups + tailGroups;
        if (compressed ? groups > 7 : groups != 8) {
            return 0;
        }
        if (want == VALID) {
            return 1;
        }
        // place head at the top: shift left by 16 * (8 - headGroups) bits
        int shift = 16 * (8 - headGroups);
        long hi;
        long lo;
        if (shift >= 128) {
            hi = 0;
            lo = 0;
        } else if (shift >= 64) {
            hi = shift == 64 ? headLo : headLo << (shift - 64);
            lo = 0;
        } else if (shift == 0) {
            hi = headHi;
            lo = headLo;
        } else {
            hi = headHi << shift | headLo >>> (64 - shift);
            lo = headLo << shift;
        }
        return want == HIGH ? hi | tailHi : lo | tailLo;
    }

    /** True if the 128-bit value is an IPv4 address or an IPv4-mapped IPv6 one ({@code ::ffff:a.b.c.d}). */
    static boolean isV4Mapped(long high, long low) {
        return high == 0 && (low >>> 32) == 0xffffL;
    }

    /** The IPv4 address in the low 32 bits, dotted: {@code 1.2.3.4}. */
    static String formatV4(long low) {
        StringBuilder text = new StringBuilder(15);
        for (int shift = 24; shift >= 0; shift -= 8) {
            text.append((low >>> shift) & 0xff);
            if (shift > 0) {
                text.append('.');
            }
        }
        return text.toString();
    }

    /**
     * The canonical text of an IPv6 address (RFC 5952): lower case, no leading zeros, the longest run of two or
     * more zero groups (the first of equal runs) written as {@code ::}. {@code suffix} is appended.
     */
    static String formatV6(long high, long low, String suffix) {
        int runStart = -1;
        int runLength = 0;
        int start = -1;
        for (int g = 0; g <= 8; g++) {
            boolean zero = g < 8 && group(high, low, g) == 0;
            if (zero && start < 0) {
                start = g;
            } else if (!zero && start >= 0) {
                if (g - start > runLength && g - start >= 2) {
                    runStart = start;
                    runLength = g - start;
                }
                start = -1;
            }
        }
        StringBuilder text = new StringBuilder(39 + suffix.length());
        for (int g = 0; g < 8; g++) {
            if (g == runStart) {
                text.append("::");
                g += runLength - 1;
                continue;
            }
            if (text.length() > 0 && text.charAt(text.length() - 1) != ':') {
                text.append(':');
            }
            text.append(Integer.toHexString(group(high, low, g)));
        }
        return text.append(suffix).toString();
    }

    private static int group(long high, long low, int g) {
        long half = g < 4 ? high : low;
        return (int) (half >>> (16 * (3 - (g & 3)))) & 0xffff;
    }

    private static int hex(char c) {
        if (c >= '0' && c <= '9') {
            return c - '0';
        }
        if (c >= 'a' && c <= 'f') {
            return c - 'a' + 10;
        }
        if (c >= 'A' && c <= 'F') {
            return c - 'A' + 10;
        }
        return -1;
    }
}
