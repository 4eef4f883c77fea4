package dev.limiter.agent.quarkus;

/**
 * The text of the last peer address a thread keyed on, kept while the same address object keeps coming: Vert.x
 * keeps one {@code SocketAddress} per connection, but formats its text ({@code hostAddress()}) anew on every call,
 * which an {@code ip} key on every request would otherwise pay. A thread serving requests of a kept-alive
 * connection one after another formats it once. Only its own thread touches an instance.
 */
final class PeerText {

    /**
     * Per thread (an event loop or a worker), shared by the {@code jaxrs:} keys ({@link RoutedRequestKeys}) and the
     * {@code http:} keys ({@link RoutingKeys}), through {@link ClientAddress}. Here, so that an
     * application without an {@code ip} key on Quarkus never loads it (anonymous class: no lambda).
     */
    private static final ThreadLocal<PeerText> CURRENT = new ThreadLocal<>() {
        @Override
        protected PeerText initialValue() {
            return new PeerText();
        }
    };

    private Object lastAddress;
    private String lastText;

    /** This thread's instance. */
    static PeerText current() {
        return CURRENT.get();
    }

    /** The text of {@code address} (a Vert.x {@code SocketAddress}), or null for null. */
    String of(PeerSource source, Object address) throws Throwable {
        if (address == null) {
            return null;
        }
        if (address == lastAddress) {
            return lastText;
        }
        String text = source.hostAddress(address);
        lastAddress = address;
        lastText = text;
        return text;
    }
}
