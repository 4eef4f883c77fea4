package dev.limiter.agent.servlet;

import dev.limiter.rules.response.ResponseSpec;

/**
 * Adapts {@link ResponseSpec.HeaderSink} to a servlet response through {@link ServletApi}. One per thread
 * (held by {@link RequestScratch}) and re-aimed at each response, so writing headers creates no lambda.
 */
final class HeaderWriter implements ResponseSpec.HeaderSink {

    private ServletApi api;
    private Object response;
    private Throwable failure;

    HeaderWriter aim(ServletApi api, Object response) {
        this.api = api;
        this.response = response;
        this.failure = null;
        return this;
    }

    @Override
    public void header(String name, String value) {
        try {
            api.header(response, name, value);
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
