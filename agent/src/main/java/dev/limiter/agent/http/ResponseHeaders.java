package dev.limiter.agent.http;

import dev.limiter.agent.decision.HeaderTarget;

/** The {@code response:} headers on any server's response, through its {@link HttpServerApi}; one per thread. */
final class ResponseHeaders extends HeaderTarget<HttpServerApi> {

    @Override
    protected void put(HttpServerApi api, Object response, String name, String value) throws Throwable {
        api.setHeader(response, name, value);
    }
}
