package dev.limiter.agent.grpc;

import dev.limiter.rules.response.ResponseSpec;

/**
 * Adapts {@link ResponseSpec.HeaderSink} to a rejection's trailers ({@code Metadata}): the same
 * {@code retry-after} and rate-limit headers an HTTP rejection carries, as ASCII metadata (gRPC lower-cases the
 * names). One per thread (held by {@link GrpcCallScratch}) and re-aimed at each rejection, so no lambda is made.
 */
final class GrpcTrailers implements ResponseSpec.HeaderSink {

    private GrpcApi api;
    private Object metadata;
    private Throwable failure;

    GrpcTrailers aim(GrpcApi api, Object metadata) {
        this.api = api;
        this.metadata = metadata;
        this.failure = null;
        return this;
    }

    @Override
    public void header(String name, String value) {
        try {
            api.put(metadata, name, value);
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** The first failure since {@link #aim}, or null; releases the metadata. */
    Throwable finish() {
        Throwable result = failure;
        api = null;
        metadata = null;
        failure = null;
        return result;
    }
}
