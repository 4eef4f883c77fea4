package dev.limiter.agent.micronaut;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.bootstrap.LimiterBridge;
import java.util.function.Function;

/**
 * The rate-limit headers of an admitted request, decided before Micronaut made its response: mapped over the flow
 * the woven method returns, they go on whatever response the request ends with (the route's, a filter's, an error
 * handler's). A JDK {@link Function}, so the agent needs no class in the application's loader. A failure leaves
 * the response as it was.
 */
final class HeadersOnResponse implements Function<Object, Object> {

    final MicronautApi api;
    /** Names and values, alternating. */
    private final String[] headers;
    private final ThrottledLog log;

    HeadersOnResponse(MicronautApi api, String[] headers, ThrottledLog log) {
        this.api = api;
        this.headers = headers;
        this.log = log;
    }

    @Override
    public Object apply(Object response) {
        if (response == null) {
            return null;
        }
        try {
            return api.withHeaders(response, headers);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            log.warn(Warning.RENDERING, "limiter: could not add the rate-limit headers to a Micronaut response", t);
            return response;
        }
    }
}
