package dev.limiter.rules.key;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import net.jqwik.api.Arbitraries;
import net.jqwik.api.Arbitrary;
import net.jqwik.api.Combinators;
import net.jqwik.api.ForAll;
import net.jqwik.api.Property;
import net.jqwik.api.Provide;

/**
 * Fuzzing the client-address resolution against a reference model. Properties, for any input:
 *
 * <ol>
 *   <li><b>Total</b>: random peers and header texts (separators, quotes, brackets, colons, control characters,
 *       garbage) never make {@code resolve} or {@code key} throw.
 *   <li><b>Trust</b>: an untrusted peer is its own client, whatever the headers say; otherwise the client is the
 *       peer or text taken from the one configured header, never from the other one.
 *   <li><b>Reference</b>: for {@code X-Forwarded-For} and {@code Forwarded} headers built from random hops
 *       (IPv4 and IPv6 addresses, trusted or not, with or without brackets, ports, quotes, spaces, other
 *       parameters; {@code unknown}, obfuscated identifiers, garbage, blank hops), the client is what the
 *       documented rule gives: the right-most hop that is not a trusted proxy, ports and brackets removed; the
 *       left-most if all are trusted; the peer if there is no hop (or a {@code Forwarded} element has no
 *       {@code for=}). The model knows each hop's address and trust from how it generated it, not by parsing.
 *   <li><b>One /64</b>: every address of one IPv6 /64, in any spelling, has the same key.
 * </ol>
 *
 * <p>Tries default to jqwik's 1,000 per property (a few seconds in all); a longer run:
 * {@code mvn -B -pl rules verify -Dtest='*PropertyTest' -Djqwik.tries.default=200000}.
 */
class ClientIpResolverPropertyTest {

    private static final List<String> TRUSTED_CIDRS = List.of("10.0.0.0/8", "fd00::/8", "192.0.2.1");
    private static final ClientIpResolver XFF = ClientIpResolver.create(TRUSTED_CIDRS,
            ClientIpResolver.Header.X_FORWARDED_FOR);
    private static final ClientIpResolver FORWARDED = ClientIpResolver.create(TRUSTED_CIDRS,
            ClientIpResolver.Header.FORWARDED);
    private static final String TRUSTED_PEER = "10.0.0.1";

    /** One hop as generated: its text in X-Forwarded-For, in Forwarded, the address it names, its trust. */
    record Hop(String xff, String forwarded, String address, boolean trusted) {
    }

    @Property
    void resolutionIsTotalAndOnlyTrustsTheConfiguredHeader(@ForAll("noise") String peer, @ForAll("noise") String xff,
            @ForAll("noise") String forwarded) {
        for (ClientIpResolver resolver : List.of(XFF, FORWARDED, ClientIpResolver.PEER_ONLY)) {
            for (String from : new String[] {peer, TRUSTED_PEER, "[fd00::1]"}) {
                String client = resolver.resolve(from, xff, forwarded);
                resolver.key(client);
                if (!resolver.isTrusted(from)) {
                    assertThat(client).isSameAs(from);
                } else {
                    String read = resolver.header() == ClientIpResolver.Header.FORWARDED ? forwarded : xff;
                    assertThat(client == from || read.contains(client)).as("[%s] from [%s]", client, read).isTrue();
                }
            }
        }
    }

    @Property
    void xForwardedForGivesTheRightMostUntrustedHop(@ForAll("hops") List<Hop> hops, @ForAll("spaces") String space) {
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < hops.size(); i++) {
            header.append(i == 0 ? "" : "," + space).append(hops.get(i).xff());
        }
        assertThat(XFF.resolve(TRUSTED_PEER, header.toString(), "for=6.6.6.6")).as(header.toString())
                .isEqualTo(expected(hops));
    }

    @Property
    void forwardedGivesTheRightMostUntrustedHop(@ForAll("hops") List<Hop> hops, @ForAll("spaces") String space,
            @ForAll("leading") List<String> before, @ForAll("trailing") List<String> after) {
        StringBuilder header = new StringBuilder();
        for (int i = 0; i < hops.size(); i++) {
            Hop hop = hops.get(i);
            header.append(i == 0 ? "" : "," + space);
            if (hop.address() == null) {
                header.append(hop.forwarded()); // a blank element: nothing to put parameters on
            } else {
                header.append(before.get(i % before.size())).append(hop.forwarded())
                        .append(after.get(i % after.size()));
            }
        }
        assertThat(FORWARDED.resolve(TRUSTED_PEER, "6.6.6.6", header.toString())).as(header.toString())
                .isEqualTo(expected(hops));
    }

    @Property
    void everyAddressOfOneSlash64IsOneClient(@ForAll("groups") List<Integer> host, @ForAll boolean upper,
            @ForAll boolean bracketed) {
        StringBuilder address = new StringBuilder("2001:db8:aa:bb");
        for (int group : host) {
            address.append(':').append(Integer.toHexString(group));
        }
        String text = upper ? address.toString().toUpperCase() : address.toString();
        String via = bracketed ? "[" + text + "]:443" : text;
        assertThat(XFF.key(XFF.resolve(TRUSTED_PEER, "6.6.6.6, " + via + ", 10.0.0.2", null)))
                .isEqualTo("2001:db8:aa:bb::/64");
    }

    /** The documented rule, over what the generator knows of each hop. */
    private static String expected(List<Hop> hops) {
        String leftmost = null;
        for (int i = hops.size() - 1; i >= 0; i--) {
            Hop hop = hops.get(i);
            if (hop.address() == null) {
                continue; // blank
            }
            if (!hop.trusted()) {
                return hop.address();
            }
            leftmost = hop.address();
        }
        return leftmost == null ? TRUSTED_PEER : leftmost;
    }

    @Provide
    Arbitrary<String> noise() {
        return Arbitraries.strings().withChars(",;=\"[]:%. \t_-\r\n\u0000").withCharRange('0', '9')
                .withChars("abcdefforFORunknown").ofMaxLength(60);
    }

    @Provide
    Arbitrary<String> spaces() {
        return Arbitraries.of("", " ", "  ", "\t", " \t ");
    }

    @Provide
    Arbitrary<List<String>> leading() {
        return Arbitraries.of("", "proto=https;", "by=10.0.0.1;", "host=\"a,b;c\";", "by=\"[fd00::1]:80\";")
                .list().ofMinSize(1).ofMaxSize(3);
    }

    @Provide
    Arbitrary<List<String>> trailing() {
        return Arbitraries.of("", ";proto=https", ";by=10.0.0.1", ";host=\"a,b;c\"", ";by=\"[fd00::1]:80\"")
                .list().ofMinSize(1).ofMaxSize(3);
    }

    @Provide
    Arbitrary<List<Integer>> groups() {
        return Arbitraries.integers().between(0, 0xffff).list().ofSize(4);
    }

    @Provide
    Arbitrary<List<Hop>> hops() {
        return Arbitraries.oneOf(v4(), v6(), identifier(), blank()).list().ofMinSize(0).ofMaxSize(12);
    }

    private static Arbitrary<Hop> v4() {
        Arbitrary<Integer> octet = Arbitraries.integers().between(0, 255);
        return Combinators.combine(Arbitraries.of(true, false), octet, octet, Arbitraries.integers().between(0, 65535),
                Arbitraries.of(true, false)).as((trusted, b, c, port, withPort) -> {
                    String address = trusted ? "10." + b + "." + c + ".1" : "198.51." + b + "." + c;
                    String text = withPort ? address + ":" + port : address;
                    return new Hop(text, "for=" + (withPort ? "\"" + text + "\"" : text), address, trusted);
                });
    }

    private static Arbitrary<Hop> v6() {
        Arbitrary<Integer> group = Arbitraries.integers().between(1, 0xffff);
        return Combinators.combine(Arbitraries.of(true, false), group, group, Arbitraries.of(0, 1, 2))
                .as((trusted, a, b, form) -> {
                    String address = (trusted ? "fd00:" : "2001:db8:") + Integer.toHexString(a) + "::"
                            + Integer.toHexString(b);
                    String text = switch (form) {
                        case 0 -> address;
                        case 1 -> "[" + address + "]";
                        default -> "[" + address + "]:" + a;
                    };
                    return new Hop(text, "for=\"" + text + "\"", address, trusted);
                });
    }

    private static Arbitrary<Hop> identifier() {
        return Arbitraries.of("unknown", "_hidden", "_SEVKISEK", "garbage", "not-an-ip", "999.1.1.1", "1.2.3")
                .map(name -> new Hop(name, "for=" + name, name, false));
    }

    private static Arbitrary<Hop> blank() {
        return Arbitraries.of("", " ").map(space -> new Hop(space, space, null, false));
    }
}
