package dev.limiter.agent.grpc;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.ClientIpResolver;
import dev.limiter.rules.key.KeySpec;
import java.net.InetSocketAddress;
import java.net.SocketAddress;

/**
 * Turns a {@code grpc:} rule's {@link KeySpec} into the key of one call: {@code global}, {@code ip} (the
 * transport's peer, or behind a trusted proxy the {@code x-forwarded-for} / {@code forwarded} metadata, as for
 * HTTP) or {@code metadata:NAME} (the entry's last value, as grpc-java's {@code Metadata.get} returns it). Missing
 * metadata counts under the shared key {@value #MISSING}, so sending none is no escape. The rules refuse every
 * other key kind on a {@code grpc:} rule; one that got here anyway has no key (the rule's {@code on-error}
 * decides).
 */
final class GrpcKeys {

    static final String MISSING = "";

    private GrpcKeys() {
    }

    /** The key, or null when a gRPC call cannot have it. */
    static String key(Rule rule, RuleSet rules, GrpcApi api, Object call, Object headers, GrpcCallScratch scratch)
            throws Throwable {
        KeySpec spec = rule.key();
        String value;
        switch (spec.kind()) {
            case GLOBAL:
                return MISSING;
            case IP:
                value = rules.clientIp().key(clientAddress(rules.clientIp(), api, call, headers, scratch));
                break;
            case METADATA:
                value = api.metadata(headers, spec.name());
                break;
            default:
                return null;
        }
        return value == null ? MISSING : value;
    }

    /** Why {@link #key} gave null, for the log. */
    static String missing(Rule rule) {
        return "limiter: rule " + rule.id() + " keys on " + rule.key() + ", which a gRPC call does not have; its"
                + " on-error decides";
    }

    /** The peer address unless the peer is a trusted proxy, as for servlets ({@link ClientIpResolver}). */
    static String clientAddress(ClientIpResolver resolver, GrpcApi api, Object call, Object headers,
            GrpcCallScratch scratch) throws Throwable {
        SocketAddress remote = api.remoteAddress(call);
        String peer = remote instanceof InetSocketAddress inet ? scratch.peerText(inet.getAddress()) : null;
        if (peer == null || !resolver.isTrusted(peer)) {
            return peer;
        }
        return resolver.resolve(peer, api.metadata(headers, "x-forwarded-for"), api.metadata(headers, "forwarded"));
    }
}
