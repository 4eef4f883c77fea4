package dev.limiter.agent.servlet;

import dev.limiter.agent.http.HttpExchange;
import dev.limiter.agent.http.HttpServerApi;

/**
 * One thread's buffers for its requests' decisions ({@link HttpExchange}), plus the last joined request path
 * ({@link JoinedPath}). Only its own thread touches it (it hangs off the thread's {@code RequestFrame}); a virtual
 * thread borrows one from the {@link ServletLimiter}'s pool for its request instead ({@link #pooled}).
 */
final class RequestScratch extends HttpExchange {

    /** Made for a virtual thread: goes back to the {@link ServletLimiter}'s pool when the request ends. */
    boolean pooled;

    final JoinedPath paths = new JoinedPath();

    /** Yes: the servlet adapter parks the container thread before the servlet runs ({@code Waiting.park}). */
    RequestScratch() {
        super(true);
    }

    @Override
    protected String rulePath(HttpServerApi api, Object request) throws Throwable {
        return paths.path((ServletApi) api, request);
    }
}
