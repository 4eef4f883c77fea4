package dev.limiter.rules.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Long and malformed forwarding headers from behind a trusted proxy: the right-most untrusted address is still
 * the client, in time linear in the header (every scan stays inside its hop), without allocating more than the
 * returned address.
 */
class ForwardedHopsTest {

    private static final ClientIpResolver XFF = ClientIpResolver.create(List.of("10.0.0.0/8", "fd00::/8"),
            ClientIpResolver.Header.X_FORWARDED_FOR);
    private static final ClientIpResolver FORWARDED = ClientIpResolver.create(List.of("10.0.0.0/8", "fd00::/8"),
            ClientIpResolver.Header.FORWARDED);
    /** A linear walk over these headers takes milliseconds; a quadratic one takes minutes. */
    private static final Duration BOUND = Duration.ofSeconds(10);

    private static String hops(int count, String hop) {
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < count; i++) {
            header.append(i == 0 ? "" : ", ").append(hop.replace("#", Integer.toString(i % 250)));
        }
        return header.toString();
    }

    @Test
    void aThousandHopsWrittenByTheClientAreIgnored() {
        String spoofed = hops(1000, "198.51.100.#");
        assertThat(XFF.resolve("10.0.0.1", spoofed + ", 203.0.113.7, 10.1.1.1, 10.2.2.2", null))
                .isEqualTo("203.0.113.7");
        String forwarded = hops(1000, "for=198.51.100.#;proto=https;by=\"[fd00::#]\"");
        assertThat(FORWARDED.resolve("10.0.0.1", null,
                forwarded + ", for=\"[2001:db8:cafe::17]:4711\";proto=https, for=10.1.1.1"))
                .isEqualTo("2001:db8:cafe::17");
    }

    @Test
    void aHeaderOfOnlyTrustedHopsIsWalkedInLinearTime() {
        // every hop trusted: the resolver must walk them all to the left-most, the worst case for its cost
        String xff = hops(100_000, "10.0.#.1");
        String forwarded = hops(100_000, "for=\"[fd00::#]:80\";by=10.0.0.1");
        assertTimeoutPreemptively(BOUND, () -> {
            assertThat(XFF.resolve("10.0.0.1", xff, null)).isEqualTo("10.0.0.1");
            assertThat(FORWARDED.resolve("10.0.0.1", null, forwarded)).isEqualTo("fd00::0");
        });
    }

    @Test
    void longGarbageHopsCostTheirLengthOnce() {
        String garbage = "x".repeat(64 * 1024);
        String header = hops(200, garbage + "#") + ", 10.0.0.9";
        assertTimeoutPreemptively(BOUND, () -> {
            String client = XFF.resolve("10.0.0.1", header, null);
            // not an address, so not a trusted proxy: the right-most such hop is the key, as written
            assertThat(client).hasSize(garbage.length() + 3).startsWith("xxx");
        });
        String colons = ":".repeat(64 * 1024);
        assertTimeoutPreemptively(BOUND, () -> assertThat(XFF.resolve("10.0.0.1", colons, null)).isEqualTo(colons));
    }

    @Test
    void malformedHopsAreHandledAsDocumented() {
        // brackets and ports stripped; obfuscated identifiers and 'unknown' are the key as written
        assertThat(XFF.resolve("10.0.0.1", "[2001:db8::1]:443, 10.0.0.2", null)).isEqualTo("2001:db8::1");
        assertThat(XFF.resolve("10.0.0.1", "unknown, 10.0.0.2", null)).isEqualTo("unknown");
        assertThat(FORWARDED.resolve("10.0.0.1", null, "for=_gazonk")).isEqualTo("_gazonk");
        assertThat(FORWARDED.resolve("10.0.0.1", null, "for=unknown;proto=http")).isEqualTo("unknown");
        assertThat(FORWARDED.resolve("10.0.0.1", null, "for=[2001:db8::1]:80")).isEqualTo("2001:db8::1");
        // an element without for= ends the walk: the client cannot be known past it, the peer is the key
        assertThat(FORWARDED.resolve("10.0.0.1", null, "for=203.0.113.7, proto=https")).isEqualTo("10.0.0.1");
        // unbalanced brackets and quotes: some text of the header or the peer, never an exception
        String[] odd = {"[2001:db8::1", "2001:db8::1]", "\"", "for=\"", "for=\"[::1", "for=", "for=\"\"", ";;;,,,",
            "for=1.2.3.4;for=5.6.7.8", "\"for=1.2.3.4\"", "[]", "[:]:", ":", "::::::::::", "1.2.3.4:99999:1",
            "for=\"a,b\",for=\"c", "\u0000,\r\n", "fd00::1%" + "z".repeat(1000)};
        for (String header : odd) {
            String peer = "10.0.0.1";
            String xff = XFF.resolve(peer, header, null);
            String fwd = FORWARDED.resolve(peer, null, header);
            assertThat(xff == peer || header.contains(xff)).as("XFF [%s] -> [%s]", header, xff).isTrue();
            assertThat(fwd == peer || header.contains(fwd)).as("Forwarded [%s] -> [%s]", header, fwd).isTrue();
        }
    }
}
