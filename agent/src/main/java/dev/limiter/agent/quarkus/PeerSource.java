package dev.limiter.agent.quarkus;

/**
 * What the client address of a Vert.x request is read from, through the application's API: the connection's peer
 * and the forwarding headers the trusted-proxy rules read. Both Quarkus request views give it: the RESTEasy
 * Reactive context ({@link VertxRequestApi}, {@code jaxrs:} keys) and Vert.x Web's request
 * ({@link RoutingApi}, {@code http:} keys), so {@link ClientAddress} and {@link PeerText} serve both.
 */
interface PeerSource {

    /** The connection's peer address ({@code SocketAddress}, one per connection), or null. */
    Object peer(Object request) throws Throwable;

    /** {@code SocketAddress.hostAddress()}: a new string each call, or null. */
    String hostAddress(Object address) throws Throwable;

    /** Every line of header {@code name} joined with {@code ,} ({@link HeaderLines}), or null. */
    String headerLines(Object request, String name) throws Throwable;
}
