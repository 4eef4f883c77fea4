package dev.limiter.agent.webflux;

import dev.limiter.rules.response.ResponseSpec;

/**
 * Adapts {@link ResponseSpec.HeaderSink} to a WebFlux response's headers. One per thread (held by
 * {@link ExchangeScratch}) and re-aimed at each response, so writing headers creates no lambda.
 */
final class WebfluxHeaders implements ResponseSpec.HeaderSink {

    private WebfluxApi api;
    private Object headers;
    private Throwable failure;

    WebfluxHeaders aim(WebfluxApi api, Object headers) {
        this.api = api;
        this.headers = headers;
        this.failure = null;
        return this;
    }

    @Override
    public void header(String name, String value) {
        try {
            api.setHeader(headers, name, value);
        } catch (Throwable t) {
            failure = t;
        }
    }

    /** The first failure since {@link #aim}, or null; releases the headers. */
    Throwable finish() {
        Throwable result = failure;
        api = null;
        headers = null;
        failure = null;
        return result;
    }
}
