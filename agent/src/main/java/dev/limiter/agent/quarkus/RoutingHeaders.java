package dev.limiter.agent.quarkus;

import dev.limiter.agent.decision.HeaderTarget;

/**
 * The {@code response:} headers on a Vert.x response ({@code putHeader}), through {@link RoutingApi}
 * ({@link HeaderTarget}); one per thread, held by {@link RoutingScratch}.
 */
final class RoutingHeaders extends HeaderTarget<RoutingApi> {

    @Override
    protected void put(RoutingApi api, Object target, String name, String value) throws Throwable {
        api.putHeader(target, name, value);
    }
}
