package dev.limiter.agent.servlet;

import dev.limiter.agent.http.PermitRelease;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;

/**
 * Gives back the concurrency permits of an asynchronous request when it really ends, not when its first
 * dispatch returns ({@code startAsync}): it is the {@code AsyncListener} (through a JDK proxy of the API's own
 * interface) of the request's async context.
 *
 * <p>Released once, on the first of {@code onComplete}, {@code onError} or {@code onTimeout}: releasing a little
 * early on an error or timeout is better than leaking a permit forever if a container skipped
 * {@code onComplete}. When the application starts async again, the listener re-registers itself, as the
 * servlet specification requires. Only async requests that hold permits pay for this object.
 */
final class AsyncRelease implements InvocationHandler {

    private final PermitRelease permits;
    private final ServletApi api;
    private final Object request;

    private AsyncRelease(PermitRelease permits, ServletApi api, Object request) {
        this.permits = permits;
        this.api = api;
        this.request = request;
    }

    /** Takes over the permits held in {@code scratch} (which is left holding none). */
    static AsyncRelease takeFrom(RequestScratch scratch, ServletApi api, Object request) {
        return new AsyncRelease(new PermitRelease(scratch.permits, api), api, request);
    }

    /** Gives the permits back, once; never throws. */
    void release() {
        permits.release();
    }

    boolean isReleased() {
        return permits.released();
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "onComplete", "onError", "onTimeout" -> release();
            case "onStartAsync" -> {
                if (!permits.released()) {
                    api.addAsyncListener(request, this);
                }
            }
            case "hashCode" -> {
                return System.identityHashCode(proxy);
            }
            case "equals" -> {
                return proxy == args[0];
            }
            case "toString" -> {
                return "limiter permits of an async request";
            }
            default -> {
                // nothing else to do
            }
        }
        return null;
    }
}
