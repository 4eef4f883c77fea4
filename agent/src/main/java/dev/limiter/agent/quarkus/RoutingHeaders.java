package dev.limiter.agent.quarkus;

import dev.limiter.rules.response.ResponseSpec;

/**
 * Adapts {@link ResponseSpec.HeaderSink} to a Vert.x response ({@code putHeader}). One per thread (held by
 * {@link RoutingScratch}) and re-aimed at each response, so writing headers creates no lambda.
 */
final class RoutingHeaders implements ResponseSpec.HeaderSink {

    private RoutingApi api;
    private Object response;
    private Throwable failure;

    RoutingHeaders aim(RoutingApi api, Object response) {
        this.api = api;
        this.response = response;
        this.failure = null;
        return this;
    }

    @Override
    public void header(String name, String value) {
        try {
            api.putHeader(response, name, value);
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** The first failure since {@link #aim}, or null; releases the response. */
    Throwable finish() {
        Throwable result = failure;
        api = null;
        response = null;
        failure = null;
        return result;
    }
}
