package dev.limiter.agent.vertx;

import dev.limiter.agent.http.PermitRelease;
import dev.limiter.agent.http.PermitsProxy;

/**
 * What a routing context's end handler does, behind a JDK proxy of the application's {@code io.vertx.core.Handler}
 * ({@link RoutingApi}): the agent's loader cannot see that interface, and a proxy is how a class of ours answers
 * to it without defining one in the application's loader. Vert.x Web calls {@code handle} once, however the request
 * ends (response ended, failed, connection closed); the release is once-only anyway ({@link PermitRelease}).
 * Only requests that hold permits pay for this object and its proxy.
 */
final class EndOfRequest extends PermitsProxy {

    EndOfRequest(PermitRelease release) {
        super("limiter permits of a routed request", release);
    }

    /** {@code handle(event)}: Handler has no other method. */
    @Override
    protected Object call(Object proxy, String name, Object[] args) {
        release();
        return null;
    }
}
