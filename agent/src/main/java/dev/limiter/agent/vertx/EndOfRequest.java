package dev.limiter.agent.vertx;

import dev.limiter.agent.http.PermitRelease;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

/**
 * What a routing context's end handler does, behind a JDK proxy of the application's {@code io.vertx.core.Handler}
 * ({@link RoutingApi}): the agent's loader cannot see that interface, and a proxy is how a class of ours answers
 * to it without defining one in the application's loader. Vert.x Web calls {@code handle} once, however the request
 * ends (response ended, failed, connection closed); the release is once-only anyway ({@link PermitRelease}).
 * Only requests that hold permits pay for this object and its proxy.
 */
final class EndOfRequest implements InvocationHandler {

    /** Null only for the instance that makes the proxy class once per loader. */
    private final PermitRelease release;

    EndOfRequest(PermitRelease release) {
        this.release = release;
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) {
        switch (method.getName()) {
            case "handle" -> {
                if (release != null) {
                    release.release();
                }
            }
            case "hashCode" -> {
                return System.identityHashCode(proxy);
            }
            case "equals" -> {
                return proxy == args[0];
            }
            case "toString" -> {
                return "limiter permits of a routed request";
            }
            default -> {
                // Handler has no other method
            }
        }
        return null;
    }
}
