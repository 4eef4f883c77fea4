package dev.limiter.rules.compile;

import dev.limiter.rules.Rule;
import dev.limiter.rules.match.NameGlob;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;

/**
 * Validates a rule's {@code match.grpc}: {@code service}, the full service name as the {@code .proto} declares it
 * ({@code acme.Orders}: package and service, a {@link NameGlob} whose {@code *} stays within one dotted segment),
 * and {@code method}, a glob over the bare method name ({@code Create*}; every method when absent).
 *
 * <p>A {@code service} written as gRPC prints a full method ({@code acme.Orders/Create}) is refused with a hint:
 * the method goes in {@code method}.
 */
final class GrpcMatchSection {

    private GrpcMatchSection() {
    }

    /** The compiled match, or null after reporting why it is invalid. */
    static MatchSection.Match read(YamlNode node, Problems problems) {
        Fields fields = Fields.of(node, "match.grpc", problems, "service", "method");
        if (fields == null) {
            return null;
        }
        int before = problems.count();
        MatchSection.Match match = new MatchSection.Match();
        match.target = Rule.Target.GRPC;
        String service = fields.requiredString("service");
        if (service != null) {
            if (service.indexOf('/') >= 0) {
                problems.add(fields.get("service"), "service '" + Fields.shorten(service) + "' is the full service"
                        + " name (package.Service) and cannot contain '/'; put the method in 'method'");
            } else {
                match.classGlob = glob(service, fields.get("service"), problems);
            }
        }
        String method = fields.has("method") ? fields.string("method") : "*";
        if (method != null) {
            YamlNode at = fields.has("method") ? fields.get("method") : node;
            if (method.indexOf('.') >= 0 || method.indexOf('/') >= 0) {
                problems.add(at, "method '" + Fields.shorten(method) + "' is a method name glob and cannot contain"
                        + " '.' or '/'; put the service in 'service'");
            } else {
                match.methodGlob = glob(method, at, problems);
            }
        }
        return problems.count() > before ? null : match;
    }

    private static NameGlob glob(String text, YamlNode at, Problems problems) {
        String problem = NameGlob.problem(text);
        if (problem != null) {
            problems.add(at, problem);
            return null;
        }
        return NameGlob.compile(text);
    }
}
