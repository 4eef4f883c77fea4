package dev.limiter.rules.compile;

import dev.limiter.rules.Rule;
import dev.limiter.rules.match.HostMatch;
import dev.limiter.rules.match.NameGlob;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;

/**
 * Validates a rule's {@code match.http-client}: the calls the service makes to other HTTP servers. {@code host} is
 * required, a glob over the host name ({@code api.partner.com}, {@code *.partner.com}; no scheme, port or path in
 * it); {@code port} and {@code scheme} ({@code http} or {@code https}) narrow it; {@code path} or {@code paths}
 * (every path when absent) and {@code methods} are read as for {@code http:}.
 */
final class ClientMatchSection {

    private static final int MAX_PORT = 65_535;

    private ClientMatchSection() {
    }

    /** The compiled match, or null after reporting why it is invalid. */
    static MatchSection.Match read(YamlNode node, Problems problems) {
        Fields fields = Fields.of(node, "match.http-client", problems, "host", "port", "scheme", "path", "paths",
                "methods");
        if (fields == null) {
            return null;
        }
        int before = problems.count();
        MatchSection.Match match = new MatchSection.Match();
        match.target = Rule.Target.HTTP_CLIENT;
        if (fields.has("path") && fields.has("paths")) {
            problems.add(node, "match.http-client takes 'path' or 'paths', not both");
        }
        MatchSection.of(problems).pathsAndMethods(fields, match);
        String host = fields.requiredString("host");
        if (host != null) {
            String problem = hostProblem(host);
            if (problem != null) {
                problems.add(fields.get("host"), problem);
                host = null;
            }
        }
        int port = HostMatch.ANY_PORT;
        if (fields.has("port")) {
            Long given = fields.integer("port", null);
            if (given != null && (given < 1 || given > MAX_PORT)) {
                problems.add(fields.get("port"), "port must be from 1 to " + MAX_PORT + ", not " + given);
            } else if (given != null) {
                port = given.intValue();
            }
        }
        String scheme = fields.has("scheme") ? fields.choice("scheme", "http", "https") : null;
        if (problems.count() > before || host == null) {
            return null;
        }
        match.hostMatch = new HostMatch(host, port, scheme);
        return match;
    }

    /** Why {@code host} is no host glob, or null. */
    private static String hostProblem(String host) {
        if (host.contains("://") || host.indexOf('/') >= 0) {
            return "host '" + Fields.shorten(host) + "' is a host name glob (api.partner.com, *.partner.com):"
                    + " put the scheme in 'scheme' and the path in 'path'";
        }
        if (host.indexOf(':') >= 0 && !host.startsWith("[")) {
            return "host '" + Fields.shorten(host) + "' is a host name glob: put the port in 'port'";
        }
        return NameGlob.problem(host);
    }
}
