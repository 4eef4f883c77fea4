package dev.limiter.agent.grpc;

import dev.limiter.agent.decision.HeaderTarget;

/**
 * The {@code response:} headers as a rejection's trailers ({@code Metadata}, ASCII entries; gRPC lower-cases the
 * names), through {@link GrpcApi} ({@link HeaderTarget}); one per thread, held by {@link GrpcCallScratch}.
 */
final class GrpcTrailers extends HeaderTarget<GrpcApi> {

    @Override
    protected void put(GrpcApi api, Object target, String name, String value) throws Throwable {
        api.put(target, name, value);
    }
}
