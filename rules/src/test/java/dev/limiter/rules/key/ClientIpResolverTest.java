package dev.limiter.rules.key;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.compile.TestRules;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Whose address a request counts against. The point is trust: headers are honoured only from configured
 * proxies, and only as far left as the proxies wrote them (CVE-2025-41235).
 */
class ClientIpResolverTest {

    private static final ClientIpResolver XFF = ClientIpResolver.create(
            List.of("127.0.0.1/32", "10.0.0.0/8", "fd00::/8", "::1"), ClientIpResolver.Header.X_FORWARDED_FOR);
    private static final ClientIpResolver FORWARDED = ClientIpResolver.create(
            List.of("127.0.0.1/32", "10.0.0.0/8", "fd00::/8"), ClientIpResolver.Header.FORWARDED);

    @Test
    void withoutTrustedProxiesThePeerIsTheClientWhateverTheHeadersSay() {
        ClientIpResolver none = ClientIpResolver.PEER_ONLY;
        String peer = "203.0.113.7";
        assertThat(none.resolve(peer, "1.2.3.4", "for=1.2.3.4")).isSameAs(peer);
        assertThat(none.resolve(null, "1.2.3.4", null)).isNull();
    }

    @Test
    void spoofedHeadersFromAnUntrustedPeerAreIgnored() {
        String peer = "203.0.113.7";
        assertThat(XFF.resolve(peer, "1.2.3.4", null)).isSameAs(peer);
        assertThat(XFF.resolve(peer, "10.0.0.1, 1.2.3.4", null)).isSameAs(peer);
        assertThat(FORWARDED.resolve(peer, null, "for=1.2.3.4")).isSameAs(peer);
        // a peer that is in a trusted range only by a sloppy prefix check
        assertThat(XFF.resolve("100.0.0.1", "1.2.3.4", null)).isEqualTo("100.0.0.1");
        assertThat(XFF.resolve("10.0.0.1.evil", "1.2.3.4", null)).isEqualTo("10.0.0.1.evil");
    }

    @ParameterizedTest(name = "peer {0}, X-Forwarded-For [{1}] -> {2}")
    @CsvSource(delimiter = '|', value = {
        "10.0.0.5 | 198.51.100.9 | 198.51.100.9",
        "10.0.0.5 | 198.51.100.9, 10.1.2.3 | 198.51.100.9",
        "10.0.0.5 | 6.6.6.6, 198.51.100.9, 10.1.2.3 | 198.51.100.9",
        "10.0.0.5 | 6.6.6.6,198.51.100.9 | 198.51.100.9",
        "127.0.0.1 | 198.51.100.9:4711 | 198.51.100.9",
        "127.0.0.1 | [2001:db8::1]:4711 | 2001:db8::1",
        "127.0.0.1 | 2001:db8::1 | 2001:db8::1",
        "127.0.0.1 | 2001:db8::1, fd00::17 | 2001:db8::1",
        "::1 | 198.51.100.9 | 198.51.100.9",
        "0:0:0:0:0:0:0:1 | 198.51.100.9 | 198.51.100.9",
        "[::1] | 198.51.100.9 | 198.51.100.9",
        "::ffff:10.0.0.9 | 198.51.100.9 | 198.51.100.9",
        "fd12:3456::1%eth0 | 198.51.100.9 | 198.51.100.9",
        "10.0.0.5 | 10.0.0.7, 10.0.0.6 | 10.0.0.7",
        "10.0.0.5 | unknown | unknown",
        "10.0.0.5 | '  198.51.100.9  ,  ' | 198.51.100.9",
        "10.0.0.5 | ' , , ' | 10.0.0.5",
        "10.0.0.5 | '' | 10.0.0.5",
        "10.0.0.5 | 010.0.0.1 | 010.0.0.1",
    })
    void takesTheRightMostUntrustedForwardedAddress(String peer, String header, String expected) {
        assertThat(XFF.resolve(peer, header, "for=6.6.6.6")).isEqualTo(expected);
    }

    @Test
    void aMissingHeaderMeansThePeer() {
        assertThat(XFF.resolve("10.0.0.5", null, "for=1.2.3.4")).isEqualTo("10.0.0.5");
        assertThat(FORWARDED.resolve("10.0.0.5", "1.2.3.4", null)).isEqualTo("10.0.0.5");
    }

    @ParameterizedTest(name = "Forwarded [{0}] -> {1}")
    @CsvSource(delimiter = '|', value = {
        "for=198.51.100.9 | 198.51.100.9",
        "For=198.51.100.9;proto=https;by=10.0.0.5 | 198.51.100.9",
        "for=6.6.6.6, for=198.51.100.9 | 198.51.100.9",
        "for=198.51.100.9, for=10.0.0.8 | 198.51.100.9",
        "for=\"198.51.100.9:4711\" | 198.51.100.9",
        "for=\"[2001:db8:cafe::17]:4711\" | 2001:db8:cafe::17",
        "for=\"[2001:db8:cafe::17]\" | 2001:db8:cafe::17",
        "proto=https;for=198.51.100.9 | 198.51.100.9",
        "for=_hidden | _hidden",
        "for=unknown | unknown",
        "for=\"6.6.6.6, for=1.1.1.1\", for=198.51.100.9 | 198.51.100.9",
        "proto=https | 10.0.0.5",
        "for=6.6.6.6, proto=https | 10.0.0.5",
    })
    void readsTheForwardedHeaderWhenConfigured(String header, String expected) {
        assertThat(FORWARDED.resolve("10.0.0.5", "7.7.7.7", header)).isEqualTo(expected);
    }

    @Test
    void whenEveryHopIsTrustedTheLeftMostIsTheClient() {
        assertThat(XFF.resolve("10.0.0.5", "10.9.9.9, 10.0.0.7", null)).isEqualTo("10.9.9.9");
    }

    @Test
    void matchesCidrsOfBothFamilies() {
        ClientIpResolver resolver = ClientIpResolver.create(List.of("192.168.0.0/16", "172.16.0.0/12",
                "2001:db8::/32", "0.0.0.0/0"), ClientIpResolver.Header.X_FORWARDED_FOR);
        assertThat(resolver.isTrusted("192.168.255.1")).isTrue();
        assertThat(resolver.isTrusted("172.31.0.1")).isTrue();
        assertThat(resolver.isTrusted("2001:db8:ffff::1")).isTrue();
        assertThat(resolver.isTrusted("2001:db9::1")).isFalse();
        assertThat(resolver.isTrusted("8.8.8.8")).isTrue(); // 0.0.0.0/0 is every IPv4 address ...
        assertThat(resolver.isTrusted("2001:db9::1")).isFalse(); // ... and no IPv6 one

        ClientIpResolver narrow = ClientIpResolver.create(List.of("172.16.0.0/12", "2001:db8::1/128"),
                ClientIpResolver.Header.X_FORWARDED_FOR);
        assertThat(narrow.isTrusted("172.32.0.1")).isFalse();
        assertThat(narrow.isTrusted("172.15.255.255")).isFalse();
        assertThat(narrow.isTrusted("2001:db8::1")).isTrue();
        assertThat(narrow.isTrusted("2001:db8::2")).isFalse();
        assertThat(narrow.isTrusted("2001:0db8:0000:0000:0000:0000:0000:0001")).isTrue();
        assertThat(narrow.isTrusted("not an address")).isFalse();
        assertThat(narrow.isTrusted("")).isFalse();
    }

    @Test
    void parsesAddressesStrictlyWithoutDns() {
        String[] valid = {"0.0.0.0", "255.255.255.255", "::", "::1", "1::", "1:2:3:4:5:6:7:8", "1::8",
            "::ffff:1.2.3.4", "64:ff9b::192.0.2.33", "fe80::1%eth0", "2001:DB8::A"};
        for (String address : valid) {
            assertThat(IpAddress.isValid(address, 0, address.length())).as(address).isTrue();
        }
        String[] invalid = {"", "1", "1.2.3", "1.2.3.4.5", "256.1.1.1", "01.2.3.4", "1.2.3.4.", "a.b.c.d",
            "1:2:3:4:5:6:7:8:9", "1:::2", "1::2::3", ":1:2", "1:2:", "12345::", "localhost", "::ffff:1.2.3",
            "1:2:3:4:5:6:7::8:9"};
        for (String address : invalid) {
            assertThat(IpAddress.isValid(address, 0, address.length())).as(address).isFalse();
        }
        assertThat(IpAddress.high("::1", 0, 3)).isZero();
        assertThat(IpAddress.low("::1", 0, 3)).isEqualTo(1);
        assertThat(IpAddress.high("1::", 0, 3)).isEqualTo(1L << 48);
        assertThat(IpAddress.low("1.2.3.4", 0, 7)).isEqualTo(0xffff_0102_0304L);
        assertThat(IpAddress.low("::ffff:1.2.3.4", 0, 14)).isEqualTo(0xffff_0102_0304L);
        assertThat(IpAddress.high("1:2:3:4:5:6:7:8", 0, 15)).isEqualTo(0x0001_0002_0003_0004L);
        assertThat(IpAddress.low("1:2:3:4:5:6:7:8", 0, 15)).isEqualTo(0x0005_0006_0007_0008L);
        assertThat(IpAddress.low("1:2::7:8", 0, 8)).isEqualTo(0x0000_0000_0007_0008L);
        assertThat(IpAddress.high("1:2::7:8", 0, 8)).isEqualTo(0x0001_0002_0000_0000L);
    }

    @Test
    void rejectsBadCidrs() {
        assertThat(ClientIpResolver.cidrProblem("10.0.0.0/8")).isNull();
        assertThat(ClientIpResolver.cidrProblem("10.0.0.1")).isNull();
        assertThat(ClientIpResolver.cidrProblem("::/0")).isNull();
        assertThat(ClientIpResolver.cidrProblem("10.0.0.0/33")).contains("from 0 to 32");
        assertThat(ClientIpResolver.cidrProblem("10.0.0.0/")).contains("from 0 to 32");
        assertThat(ClientIpResolver.cidrProblem("10.0.0.0/x")).contains("from 0 to 32");
        assertThat(ClientIpResolver.cidrProblem("10.0.0.1/8")).contains("bits set after the /8");
        assertThat(ClientIpResolver.cidrProblem("fe80::1%eth0/64")).contains("not an IPv4 or IPv6 address");
        assertThat(ClientIpResolver.cidrProblem("example.com/8")).contains("not an IPv4 or IPv6 address");
        assertThatThrownBy(() -> ClientIpResolver.create(List.of("nope"), ClientIpResolver.Header.FORWARDED))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theLoaderWiresTheConfiguredHeader() {
        RuleSet rules = TestRules.parse("version: 1\nclient-ip:\n  trusted-proxies: [10.0.0.0/8]\n"
                + "  header: forwarded\nrules: []\n");
        assertThat(rules.clientIp().header()).isEqualTo(ClientIpResolver.Header.FORWARDED);
        assertThat(rules.clientIp().resolve("10.0.0.1", "1.1.1.1", "for=2.2.2.2")).isEqualTo("2.2.2.2");
        assertThat(TestRules.parse("version: 1\nrules: []\n").clientIp()).isSameAs(ClientIpResolver.PEER_ONLY);
    }

    private static ClientIpResolver prefix(int bits) {
        return ClientIpResolver.create(List.of(), ClientIpResolver.Header.X_FORWARDED_FOR, bits);
    }

    @Test
    void everySpellingOfEveryAddressOfOneSlash64IsOneKey() {
        ClientIpResolver resolver = ClientIpResolver.PEER_ONLY;
        assertThat(resolver.ipv6Prefix()).isEqualTo(64);
        String[] spellings = {"2001:db8:1:2::1", "2001:db8:1:2:ffff:ffff:ffff:ffff",
            "2001:0db8:0001:0002:0000:0000:0000:0001", "2001:DB8:1:2:A:B:C:D", "2001:db8:1:2::1%eth0",
            "[2001:db8:1:2::99]", "2001:db8:1:2:0:0:0:0", "2001:db8:1:2::1.2.3.4"};
        for (String address : spellings) {
            assertThat(resolver.key(address)).as(address).isEqualTo("2001:db8:1:2::/64");
        }
        assertThat(resolver.key("2001:db8:1:3::1")).isEqualTo("2001:db8:1:3::/64");
        assertThat(resolver.key("2001:db8:1::1")).isEqualTo("2001:db8:1::/64");
        assertThat(resolver.key("::1")).isEqualTo("::/64");
        assertThat(resolver.key("fe80::1%eth0")).isEqualTo("fe80::/64");
    }

    @ParameterizedTest(name = "/{0}: {1} -> {2}")
    @CsvSource(delimiter = '|', value = {
        "32 | 2001:db8:ffff:1::1 | 2001:db8::/32",
        "32 | 2001:0DB8:0:0:1:: | 2001:db8::/32",
        "48 | 2001:db8:aa:bb::1 | 2001:db8:aa::/48",
        "48 | 2001:db8:aa:ffff:1:2:3:4 | 2001:db8:aa::/48",
        "64 | 2001:db8:aa:bb:1:2:3:4 | 2001:db8:aa:bb::/64",
        "56 | 2001:db8:aa:bbcc::1 | 2001:db8:aa:bb00::/56",
        "96 | 1:0:0:2:0:0:3:4 | 1:0:0:2::/96",
        "128 | 2001:0DB8:0000:0000:0000:0000:0000:0001 | 2001:db8::1",
        "128 | 2001:db8::1%3 | 2001:db8::1",
        "128 | 1:0:0:2:0:0:0:3 | 1:0:0:2::3",
        "128 | 1:0:0:2:0:0:3:4 | 1::2:0:0:3:4",
        "128 | 1:2:3:4:5:6:0:8 | 1:2:3:4:5:6:0:8",
        "128 | 0:0:0:0:0:0:0:0 | ::",
        "128 | 1:: | 1::",
    })
    void masksToThePrefixAndWritesOneCanonicalText(int bits, String address, String key) {
        assertThat(prefix(bits).key(address)).isEqualTo(key);
    }

    @Test
    void differentNetworksGetDifferentKeys() {
        assertThat(prefix(64).key("2001:db8:1:2::1")).isNotEqualTo(prefix(64).key("2001:db8:1:3::1"));
        assertThat(prefix(48).key("2001:db8:1:2::1")).isEqualTo(prefix(48).key("2001:db8:1:3::1"));
        assertThat(prefix(48).key("2001:db8:1::1")).isNotEqualTo(prefix(48).key("2001:db8:2::1"));
        assertThat(prefix(128).key("2001:db8::1")).isNotEqualTo(prefix(128).key("2001:db8::2"));
        // the per-thread cache remembers the prefix it keyed with
        assertThat(prefix(64).key("2001:db8:1:2::1")).isEqualTo("2001:db8:1:2::/64");
        assertThat(prefix(32).key("2001:db8:1:2::1")).isEqualTo("2001:db8::/32");
    }

    @Test
    void ipv4AndMappedIpv4AreKeyedByTheIpv4AddressAndGarbageAsWritten() {
        String v4 = "203.0.113.7";
        for (int bits : new int[] {32, 64, 128}) {
            assertThat(prefix(bits).key(v4)).isSameAs(v4);
            assertThat(prefix(bits).key("::ffff:203.0.113.7")).isEqualTo(v4);
            assertThat(prefix(bits).key("::FFFF:cb00:7107")).isEqualTo(v4);
        }
        for (String raw : new String[] {"unknown", "_hidden", "not:an:address", "2001:db8::1::2", "[::1", ""}) {
            assertThat(ClientIpResolver.PEER_ONLY.key(raw)).isSameAs(raw);
        }
        assertThat(ClientIpResolver.PEER_ONLY.key(null)).isNull();
    }

    @Test
    void theLoaderReadsAndChecksTheIpv6Prefix() {
        assertThat(TestRules.parse("version: 1\nclient-ip:\n  ipv6-prefix: 48\nrules: []\n").clientIp()
                .key("2001:db8:1:2::1")).isEqualTo("2001:db8:1::/48");
        assertThat(TestRules.parse("version: 1\nclient-ip:\n  ipv6-prefix: 64\nrules: []\n").clientIp())
                .isSameAs(ClientIpResolver.PEER_ONLY);
        for (String bad : new String[] {"31", "129", "0", "-64", "sixty-four", "64.5"}) {
            assertThatThrownBy(() -> TestRules.parse("version: 1\nclient-ip:\n  ipv6-prefix: " + bad
                    + "\nrules: []\n")).as(bad).hasMessageContaining("3:16: ipv6-prefix must be");
        }
        assertThat(TestRules.parse("version: 1\nclient-ip:\n  ipv6-prefix: 32\nrules: []\n").clientIp()
                .ipv6Prefix()).isEqualTo(32);
        assertThat(TestRules.parse("version: 1\nclient-ip:\n  ipv6-prefix: 128\nrules: []\n").clientIp()
                .ipv6Prefix()).isEqualTo(128);
        assertThatThrownBy(() -> prefix(129)).isInstanceOf(IllegalArgumentException.class);
    }
}
