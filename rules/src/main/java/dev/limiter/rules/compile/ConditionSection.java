package dev.limiter.rules.compile;

import dev.limiter.rules.Rule;
import dev.limiter.rules.key.IpRanges;
import dev.limiter.rules.condition.Condition;
import dev.limiter.rules.condition.ValueGlob;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates and compiles request conditions: {@code ips} (CIDR ranges of the client address), {@code headers}
 * (name: value glob, {@code ''} for "absent") and {@code principal-roles}, wherever the file states them (in
 * {@code match.http} / {@code match.jaxrs}, in {@code unless} entries, in an override's {@code when}).
 */
final class ConditionSection {

    static final String IPS = "ips";
    static final String HEADERS = "headers";
    static final String ROLES = "principal-roles";
    static final String[] KEYS = {IPS, HEADERS, ROLES};

    private static final int MAX_ENTRIES = 1_000;

    private ConditionSection() {
    }

    /** The condition stated by a mapping of only {@link #KEYS}, or null after recording why it is invalid. */
    static Condition read(YamlNode node, String where, Rule.Target target, Problems problems) {
        Fields fields = Fields.of(node, where, problems, KEYS);
        if (fields == null) {
            return null;
        }
        if (!fields.has(IPS) && !fields.has(HEADERS) && !fields.has(ROLES)) {
            problems.add(node, where + " states no condition: give ips, headers or principal-roles");
            return null;
        }
        return read(fields, where, target, problems);
    }

    /**
     * The condition stated by the {@link #KEYS} of {@code fields} (which may hold other keys too), null if it
     * states none, or null after recording a problem ({@code problems} counts tell the two apart).
     *
     * @param target what the rule matches (null if its match is invalid): a method rule has no request, so only
     *               {@code principal-roles} can be asked there; a gRPC call has no user, so that one cannot
     */
    static Condition read(Fields fields, String where, Rule.Target target, Problems problems) {
        if (!fields.has(IPS) && !fields.has(HEADERS) && !fields.has(ROLES)) {
            return null;
        }
        int before = problems.count();
        if (target == Rule.Target.METHOD) {
            for (String key : new String[] {IPS, HEADERS}) {
                if (fields.has(key)) {
                    problems.add(fields.get(key), key + " needs an http, jaxrs or grpc rule: a plain method call has"
                            + " no request (only principal-roles can be asked, of the request being served)");
                }
            }
        }
        if (target == Rule.Target.HTTP_CLIENT) {
            for (String key : new String[] {IPS, ROLES}) {
                if (fields.has(key)) {
                    problems.add(fields.get(key), key + " cannot hold on an http-client rule: an outgoing call has"
                            + " no client address or user of its own; use headers (they read the outgoing request's)");
                }
            }
        }
        if (target == Rule.Target.GRPC && fields.has(ROLES)) {
            problems.add(fields.get(ROLES), ROLES + " cannot hold on a grpc rule: a gRPC call has no user before the"
                    + " service runs; use headers (they read the call's metadata) or ips");
        }
        IpRanges ips = ips(fields, problems);
        List<String> names = new ArrayList<>();
        List<ValueGlob> values = new ArrayList<>();
        headers(fields, names, values, problems);
        List<String> roles = new ArrayList<>();
        if (fields.has(ROLES)) {
            List<YamlNode> items = nonEmpty(fields, ROLES, problems);
            if (items != null) {
                for (YamlNode item : items) {
                    roles.add(item.text());
                }
            }
        }
        if (problems.count() > before) {
            return null;
        }
        return new Condition(ips, names, values, roles);
    }

    private static IpRanges ips(Fields fields, Problems problems) {
        if (!fields.has(IPS)) {
            return IpRanges.NONE;
        }
        List<YamlNode> items = nonEmpty(fields, IPS, problems);
        if (items == null) {
            return IpRanges.NONE;
        }
        List<String> cidrs = new ArrayList<>();
        for (YamlNode item : items) {
            String problem = IpRanges.problem(item.text());
            if (problem != null) {
                problems.add(item, problem.contains("is not an IPv4 or IPv6 address")
                        ? problem + " (write e.g. 10.0.0.0/8, 2001:db8::/32 or one address)" : problem);
            } else {
                cidrs.add(item.text());
            }
        }
        return cidrs.size() == items.size() ? IpRanges.of(cidrs) : IpRanges.NONE;
    }

    private static void headers(Fields fields, List<String> names, List<ValueGlob> values, Problems problems) {
        if (!fields.has(HEADERS)) {
            return;
        }
        YamlNode map = fields.get(HEADERS);
        if (!map.is(YamlNode.Kind.MAP) || map.entries().isEmpty()) {
            problems.add(map, "headers must be a mapping of header names to values, e.g. { X-Plan: pro }"
                    + " ('' for \"the header is absent\")");
            return;
        }
        for (var entry : map.entries().values()) {
            String name = entry.key();
            YamlNode value = entry.value();
            if (!validHeaderName(name)) {
                problems.add(entry, "'" + Fields.shorten(name) + "' is not a header name");
                continue;
            }
            boolean scalar = value.is(YamlNode.Kind.STRING) || value.is(YamlNode.Kind.INT)
                    || value.is(YamlNode.Kind.BOOL);
            if (!scalar) {
                problems.add(value, "header " + Fields.shorten(name) + " must have a value pattern like 'acme-*' or"
                        + " '' (absent), not " + value.kind().description());
                continue;
            }
            names.add(name);
            values.add(ValueGlob.compile(value.text()));
        }
    }

    private static List<YamlNode> nonEmpty(Fields fields, String key, Problems problems) {
        List<YamlNode> items = fields.stringList(key);
        if (items == null) {
            return null;
        }
        if (fields.get(key).items().isEmpty()) {
            problems.add(fields.get(key), key + " must not be empty (leave it out for none)");
            return null;
        }
        if (items.size() > MAX_ENTRIES) {
            problems.add(fields.get(key), key + " has more than " + MAX_ENTRIES + " entries");
            return null;
        }
        return items;
    }

    /** An RFC 9110 token: the characters a header name may have. */
    private static boolean validHeaderName(String name) {
        if (name.isEmpty() || name.length() > 256) {
            return false;
        }
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
                    || "!#$%&'*+-.^_`|~".indexOf(c) >= 0;
            if (!ok) {
                return false;
            }
        }
        return true;
    }
}
