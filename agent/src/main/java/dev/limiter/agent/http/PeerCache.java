package dev.limiter.agent.http;

/**
 * The text of the last peer a thread keyed on, kept while the same (or an equal) peer keeps coming: an
 * {@code ip} key on every request of a kept-alive connection formats the address once (an {@code InetAddress} or a
 * Vert.x {@code SocketAddress} builds a new string each time). Only its own thread touches an instance (one per
 * thread's {@link HttpExchange} or call buffers).
 */
public final class PeerCache {

    private Object last;
    private String lastText;

    /** The text of {@code peer} as {@code view} formats it, or null for null. */
    public String text(RequestView view, Object peer) throws Throwable {
        if (peer == null) {
            return null;
        }
        if (peer == last || peer.equals(last)) {
            return lastText;
        }
        String text = view.peerText(peer);
        last = peer;
        lastText = text;
        return text;
    }
}
