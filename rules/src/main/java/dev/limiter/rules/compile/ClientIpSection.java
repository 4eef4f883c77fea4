package dev.limiter.rules.compile;

import dev.limiter.rules.key.ClientIpResolver;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates the top-level {@code client-ip:} section: which proxies are trusted to name the client, and in which
 * header. Without it only the peer address counts, so a client cannot pick its own key.
 */
final class ClientIpSection {

    private ClientIpSection() {
    }

    /** The resolver of {@code node} ({@link ClientIpResolver#PEER_ONLY} when absent); problems are recorded. */
    static ClientIpResolver read(YamlNode node, Problems problems) {
        if (node == null) {
            return ClientIpResolver.PEER_ONLY;
        }
        Fields fields = Fields.of(node, "client-ip", problems, "trusted-proxies", "header",
                "ipv6-prefix");
        if (fields == null) {
            return ClientIpResolver.PEER_ONLY;
        }
        List<String> cidrs = new ArrayList<>();
        List<YamlNode> items = fields.stringList("trusted-proxies");
        if (items != null) {
            for (YamlNode item : items) {
                String problem = ClientIpResolver.cidrProblem(item.text());
                if (problem != null) {
                    problems.add(item, problem);
                } else {
                    cidrs.add(item.text());
                }
            }
        }
        String header = fields.has("header") ? fields.choice("header", "x-forwarded-for", "forwarded")
                : "x-forwarded-for";
        ClientIpResolver.Header which = "forwarded".equals(header) ? ClientIpResolver.Header.FORWARDED
                : ClientIpResolver.Header.X_FORWARDED_FOR;
        int prefix = ipv6Prefix(fields, problems);
        return cidrs.isEmpty() && which == ClientIpResolver.Header.X_FORWARDED_FOR
                && prefix == ClientIpResolver.DEFAULT_IPV6_PREFIX ? ClientIpResolver.PEER_ONLY
                : ClientIpResolver.create(cidrs, which, prefix);
    }

    /**
     * How many leading bits of an IPv6 client make its key: a whole number from
     * {@value ClientIpResolver#MIN_IPV6_PREFIX} to {@value ClientIpResolver#MAX_IPV6_PREFIX}.
     */
    private static int ipv6Prefix(Fields fields, Problems problems) {
        Long prefix = fields.integer("ipv6-prefix", (long) ClientIpResolver.DEFAULT_IPV6_PREFIX);
        if (prefix == null) {
            return ClientIpResolver.DEFAULT_IPV6_PREFIX;
        }
        if (prefix < ClientIpResolver.MIN_IPV6_PREFIX || prefix > ClientIpResolver.MAX_IPV6_PREFIX) {
            problems.add(fields.get("ipv6-prefix"), "ipv6-prefix must be from " + ClientIpResolver.MIN_IPV6_PREFIX
                    + " to " + ClientIpResolver.MAX_IPV6_PREFIX + ", not " + prefix);
            return ClientIpResolver.DEFAULT_IPV6_PREFIX;
        }
        return prefix.intValue();
    }
}
