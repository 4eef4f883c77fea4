package dev.limiter.rules.compile;

import dev.limiter.rules.Rule;
import dev.limiter.rules.key.KeySpec;
import dev.limiter.rules.match.PathPattern;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;
import dev.limiter.rules.yaml.YamlNode;

/**
 * Validates one rule's {@code key:} against its {@code match:}: a key must name something the matched call has
 * (arguments for methods, a request for HTTP and JAX-RS, a captured {@code {name}} in every path, a peer and
 * metadata for gRPC).
 */
final class KeySection {

    private KeySection() {
    }

    /** The key ({@link KeySpec#GLOBAL} when absent), or null after recording why it is invalid. */
    static KeySpec read(Fields rule, MatchSection.Match match, Problems problems) {
        if (!rule.has("key")) {
            return KeySpec.GLOBAL;
        }
        String text = rule.string("key");
        if (text == null) {
            return null;
        }
        KeySpec key;
        try {
            key = KeySpec.parse(text);
        } catch (IllegalArgumentException e) {
            problems.add(rule.get("key"), e.getMessage());
            return null;
        }
        if (match == null) {
            return key;
        }
        YamlNode at = rule.get("key");
        if (match.target == Rule.Target.GRPC) {
            return grpc(key, at, problems);
        }
        if (match.target == Rule.Target.HTTP_CLIENT) {
            return client(key, at, problems);
        }
        switch (key.kind()) {
            case HOST:
                problems.add(at, "key 'host' needs an http-client match (the host an outgoing call goes to); an"
                        + " incoming request is keyed on ip, header:Host or path");
                return null;
            case METADATA:
                problems.add(at, "key '" + key + "' needs a grpc match (HTTP requests and methods have no gRPC"
                        + " metadata); use header:NAME for an HTTP header");
                return null;
            case ARG:
                if (match.target == Rule.Target.HTTP) {
                    problems.add(at, "key '" + key + "' needs a method or jaxrs match (HTTP requests have no"
                            + " arguments)");
                    return null;
                }
                return key;
            case PATH_PARAM:
                if (match.target == Rule.Target.JAXRS) {
                    // the @PathParam(NAME) argument of the resource method; the agent finds it when it weaves
                    return key;
                }
                if (match.target != Rule.Target.HTTP) {
                    problems.add(at, "key '" + key + "' needs an http match with {" + key.name() + "} in the path,"
                            + " or a jaxrs match with a @PathParam(\"" + key.name() + "\") argument");
                    return null;
                }
                for (PathPattern pattern : match.patterns) {
                    if (!pattern.captures(key.name())) {
                        problems.add(at, "key '" + key + "': path '" + pattern.text() + "' has no {" + key.name()
                                + "} segment");
                        return null;
                    }
                }
                return key;
            case IP:
            case HEADER:
            case PARAM:
            case PATH:
                if (match.target == Rule.Target.METHOD) {
                    problems.add(at, "key '" + key + "' needs an http" + (key.kind() == KeySpec.Kind.IP
                            ? ", jaxrs or grpc" : " or jaxrs") + " match (plain methods have no request)");
                    return null;
                }
                return key;
            default:
                return key;
        }
    }

    /** An outgoing call has a host, a path and headers; no client address, user, parameters or arguments. */
    private static KeySpec client(KeySpec key, YamlNode at, Problems problems) {
        switch (key.kind()) {
            case GLOBAL:
            case HOST:
            case PATH:
            case HEADER:
                return key;
            default:
                problems.add(at, "key '" + key + "' is not available on an http-client match; an outgoing call is"
                        + " keyed on global, host, path or header:NAME (a header of the outgoing request)");
                return null;
        }
    }

    /** gRPC calls have a peer and metadata, nothing else a key could name. */
    private static KeySpec grpc(KeySpec key, YamlNode at, Problems problems) {
        switch (key.kind()) {
            case GLOBAL:
            case IP:
                return key;
            case METADATA:
                if (key.name().toLowerCase(java.util.Locale.ROOT).endsWith("-bin")) {
                    problems.add(at, "key '" + key + "': binary metadata (a name ending in -bin) cannot be a key;"
                            + " name an ASCII metadata entry");
                    return null;
                }
                return key;
            default:
                problems.add(at, "key '" + key + "' is not available on a grpc match; a gRPC call is keyed on"
                        + " global, ip or metadata:NAME" + (key.kind() == KeySpec.Kind.HEADER
                                ? " (metadata:" + key.name() + " reads the same request header)" : ""));
                return null;
        }
    }
}
