package dev.limiter.agent.webflux;

import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpServerApi;

/**
 * An event loop's buffers for its exchanges' decisions ({@link HttpExchange}), plus the last path cut: the path
 * within the application is kept for the next exchange of the same path and context path.
 */
final class WebfluxExchange extends HttpExchange {

    private String lastFullPath;
    private String lastContext;
    private String lastAppPath;

    WebfluxExchange() {
        super(false); // an event loop never parks
    }

    /** {@link WebfluxApi#path}, kept while the same path keeps coming. */
    @Override
    protected String rulePath(HttpServerApi binding, Object request) throws Throwable {
        WebfluxApi api = (WebfluxApi) binding;
        String full = api.fullPath(request);
        String context = api.contextPath(request);
        if (full == null || context == null || context.isEmpty() || !full.startsWith(context)) {
            return full;
        }
        if (full.equals(lastFullPath) && context.equals(lastContext)) {
            return lastAppPath;
        }
        String cut = full.length() == context.length() ? "/" : full.substring(context.length());
        lastFullPath = full;
        lastContext = context;
        lastAppPath = cut;
        return cut;
    }
}
