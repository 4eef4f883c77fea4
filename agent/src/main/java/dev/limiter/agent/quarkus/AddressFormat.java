package dev.limiter.agent.quarkus;

/** Formats a Vert.x {@code SocketAddress} (as {@code Object}) as its host text, through the application's API. */
interface AddressFormat {

    /** {@code SocketAddress.hostAddress()}: a new string each call, or null. */
    String hostAddress(Object address) throws Throwable;
}
