package dev.limiter.agent.quarkus;

import dev.limiter.rules.key.ClientIpResolver;

/** The client address of a Vert.x request: the peer unless it is a trusted proxy, as for servlets. */
final class ClientAddress {

    private ClientAddress() {
    }

    /** The peer's text ({@link PeerText}: kept per thread), or what the trusted proxies forwarded. */
    static String of(ClientIpResolver resolver, PeerSource source, Object request) throws Throwable {
        String peer = PeerText.current().of(source, source.peer(request));
        if (peer == null || !resolver.isTrusted(peer)) {
            return peer;
        }
        return resolver.resolve(peer, source.headerLines(request, "X-Forwarded-For"),
                source.headerLines(request, "Forwarded"));
    }
}
