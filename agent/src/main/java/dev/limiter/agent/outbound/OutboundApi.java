package dev.limiter.agent.outbound;

/**
 * What an HTTP client's adapter tells the outbound gate about a request beyond its method and URI, which it reads
 * once per call into {@link OutboundCall#begin}: a header of the outgoing request, for {@code key: header:NAME}
 * and {@code headers} conditions.
 */
public interface OutboundApi {

    /** The first value of header {@code name} of {@code request}, or null if it has none. */
    String header(Object request, String name) throws Throwable;
}
