package dev.limiter.agent.http;

import dev.limiter.rules.key.ClientIpResolver;

/**
 * The client address of a request, for every server: the connection's peer, unless the peer is a trusted proxy;
 * only then are the forwarding headers read, every line of them, so a client cannot choose its address
 * ({@link ClientIpResolver}: the right-most untrusted address).
 */
public final class ClientAddress {

    private ClientAddress() {
    }

    /** The client's address text, or null if the server does not know the peer. */
    public static String of(ClientIpResolver resolver, RequestView view, Object request, PeerCache peers)
            throws Throwable {
        String peer = peers.text(view, view.peer(request));
        if (peer == null || !resolver.isTrusted(peer)) {
            return peer;
        }
        boolean metadata = view.lacks(RequestView.NO_PATH); // gRPC metadata keys are lower case
        return resolver.resolve(peer, view.headerLines(request, metadata ? "x-forwarded-for" : "X-Forwarded-For"),
                view.headerLines(request, metadata ? "forwarded" : "Forwarded"));
    }

    /** The client's key: its address, an IPv6 client by its network ({@link ClientIpResolver#key}). */
    public static String key(ClientIpResolver resolver, RequestView view, Object request, PeerCache peers)
            throws Throwable {
        return resolver.key(of(resolver, view, request, peers));
    }
}
