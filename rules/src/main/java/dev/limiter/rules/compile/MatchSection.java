package dev.limiter.rules.compile;

import dev.limiter.rules.Rule;
import dev.limiter.rules.match.HostMatch;
import dev.limiter.rules.match.HttpMethods;
import dev.limiter.rules.match.NameGlob;
import dev.limiter.rules.match.PathPattern;
import dev.limiter.rules.condition.Condition;
import dev.limiter.rules.text.Suggestions;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;
import java.util.ArrayList;
import java.util.List;

/**
 * Validates one rule's {@code match:} ({@code http}, {@code jaxrs}, {@code method}, {@code grpc} or
 * {@code http-client}) and compiles its
 * path patterns, HTTP methods and name globs, reporting every problem with its position.
 */
final class MatchSection {

    private final Problems problems;

    private MatchSection(Problems problems) {
        this.problems = problems;
    }

    /** A reader of the parts of a match every HTTP kind shares ({@link #pathsAndMethods}). */
    static MatchSection of(Problems problems) {
        return new MatchSection(problems);
    }

    /** The compiled match, or null after reporting why it is invalid. */
    static Match read(YamlNode node, String label, Problems problems) {
        return new MatchSection(problems).match(node, label);
    }

    /** A validated {@code match:}. */
    static final class Match {
        Rule.Target target;
        List<String> paths = List.of();
        PathPattern[] patterns = new PathPattern[0];
        int methodBits = HttpMethods.ALL;
        List<String> httpMethods = List.of();
        NameGlob classGlob;
        NameGlob methodGlob;
        /** Where an {@code http-client:} rule's calls go; null for the other kinds. */
        HostMatch hostMatch;
        /** The request condition stated beside the path or names ({@code ips}, {@code headers}...), or null. */
        Condition condition;
    }

    private Match match(YamlNode node, String label) {
        Fields fields = Fields.of(node, "match", problems, "http", "jaxrs", "method", "grpc", "http-client");
        if (fields == null) {
            return null;
        }
        int kinds = (fields.has("http") ? 1 : 0) + (fields.has("jaxrs") ? 1 : 0) + (fields.has("method") ? 1 : 0)
                + (fields.has("grpc") ? 1 : 0) + (fields.has("http-client") ? 1 : 0);
        if (kinds != 1) {
            problems.add(node, "match of " + label + " must have exactly one of http, jaxrs, method, grpc or"
                    + " http-client");
            return null;
        }
        if (fields.has("http")) {
            return http(fields.get("http"));
        }
        if (fields.has("grpc")) {
            return GrpcMatchSection.read(fields.get("grpc"), problems);
        }
        if (fields.has("http-client")) {
            return ClientMatchSection.read(fields.get("http-client"), problems);
        }
        boolean jaxrs = fields.has("jaxrs");
        return names(fields.get(jaxrs ? "jaxrs" : "method"), jaxrs ? Rule.Target.JAXRS : Rule.Target.METHOD);
    }

    private Match http(YamlNode node) {
        Fields http = Fields.of(node, "match.http", problems, "path", "paths", "methods", ConditionSection.IPS,
                ConditionSection.HEADERS, ConditionSection.ROLES);
        if (http == null) {
            return null;
        }
        int before = problems.count();
        Match match = new Match();
        match.target = Rule.Target.HTTP;
        if (http.has("path") == http.has("paths")) {
            problems.add(node, "match.http must have exactly one of 'path' or 'paths'");
        }
        pathsAndMethods(http, match);
        match.condition = ConditionSection.read(http, "match.http", Rule.Target.HTTP, problems);
        return problems.count() > before ? null : match;
    }

    /**
     * Reads {@code path} or {@code paths} (if one is given) and {@code methods} of {@code fields} into
     * {@code match}, recording what is wrong; shared by {@code http:} and {@code http-client:}.
     */
    void pathsAndMethods(Fields http, Match match) {
        List<YamlNode> pathNodes = new ArrayList<>();
        if (http.has("path") && http.has("paths")) {
            // reported by the caller
        } else if (http.has("path")) {
            String path = http.string("path");
            if (path != null) {
                pathNodes.add(http.get("path"));
            }
        } else {
            List<YamlNode> items = http.stringList("paths");
            if (items != null && items.isEmpty() && http.get("paths").items().isEmpty()) {
                problems.add(http.get("paths"), "paths must not be empty");
            } else if (items != null) {
                pathNodes.addAll(items);
            }
        }
        List<String> paths = new ArrayList<>();
        List<PathPattern> patterns = new ArrayList<>();
        for (YamlNode pathNode : pathNodes) {
            try {
                patterns.add(PathPattern.compile(pathNode.text()));
                paths.add(pathNode.text());
            } catch (IllegalArgumentException e) {
                problems.add(pathNode, e.getMessage());
            }
        }
        if (http.has("methods")) {
            List<YamlNode> methods = http.stringList("methods");
            if (methods != null && http.get("methods").items().isEmpty()) {
                problems.add(http.get("methods"), "methods must not be empty (leave it out for all methods)");
            } else if (methods != null) {
                int bits = 0;
                List<String> names = new ArrayList<>();
                for (YamlNode method : methods) {
                    int bit = HttpMethods.bit(method.text());
                    if (bit == HttpMethods.OTHER) {
                        String suggestion = Suggestions.closest(method.text(), HttpMethods.NAMES);
                        problems.add(method, "unknown HTTP method '" + Fields.shorten(method.text()) + "'"
                                + (suggestion == null ? "" : " (did you mean '" + suggestion + "'?)"));
                    } else {
                        bits |= bit;
                        names.add(method.text());
                    }
                }
                match.methodBits = bits;
                match.httpMethods = names;
            }
        }
        match.paths = paths;
        match.patterns = patterns.toArray(new PathPattern[0]);
    }

    private Match names(YamlNode node, Rule.Target target) {
        String where = "match." + (target == Rule.Target.JAXRS ? "jaxrs" : "method");
        Fields fields = target == Rule.Target.JAXRS
                ? Fields.of(node, where, problems, "class", "method", ConditionSection.IPS, ConditionSection.HEADERS,
                        ConditionSection.ROLES)
                : Fields.of(node, where, problems, "class", "method");
        if (fields == null) {
            return null;
        }
        int before = problems.count();
        Match match = new Match();
        match.target = target;
        String classGlob = fields.requiredString("class");
        String methodGlob = fields.has("method") ? fields.string("method") : "*";
        if (classGlob != null) {
            match.classGlob = glob(classGlob, fields.get("class"));
        }
        if (methodGlob != null) {
            if (methodGlob.indexOf('.') >= 0) {
                problems.add(fields.get("method"), "method '" + Fields.shorten(methodGlob) + "' is a method name"
                        + " glob and cannot contain '.'; put the class in 'class'");
            } else {
                match.methodGlob = glob(methodGlob, fields.get("method") == null ? node : fields.get("method"));
            }
        }
        if (target == Rule.Target.JAXRS) {
            match.condition = ConditionSection.read(fields, where, target, problems);
        }
        return problems.count() > before ? null : match;
    }

    private NameGlob glob(String text, YamlNode at) {
        String problem = NameGlob.problem(text);
        if (problem != null) {
            problems.add(at, problem);
            return null;
        }
        return NameGlob.compile(text);
    }
}
