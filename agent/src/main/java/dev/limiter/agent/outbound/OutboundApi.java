package dev.limiter.agent.outbound;

/**
 * What the outbound gate reads of an HTTP client's request and response beyond the request's method and URI
 * (which its adapter reads once per call into {@link OutboundCall#begin}): a header of the outgoing request, for
 * {@code key: header:NAME} and {@code headers} conditions; the status and {@code Retry-After} of the answer, for
 * {@code honor-retry-after}. A failure to read is the gate's to count ({@link OutboundCallEnd}).
 */
public interface OutboundApi {

    /** The first value of header {@code name} of {@code request}, or null if it has none. */
    String header(Object request, String name) throws Throwable;

    /** The status code of {@code response}. */
    int status(Object response) throws Throwable;

    /** The first {@code Retry-After} value of {@code response}, or null. */
    String retryAfter(Object response) throws Throwable;
}
