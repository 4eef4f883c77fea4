package dev.limiter.agent.servlet;

import dev.limiter.agent.decision.HeldPermits;
import java.lang.reflect.InvocationHandler;
import java.lang.reflect.Method;
import java.util.concurrent.atomic.AtomicBoolean;

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

    private final HeldPermits permits;
    private final ServletApi api;
    private final Object request;
    private final AtomicBoolean released = new AtomicBoolean();

    private AsyncRelease(HeldPermits permits, ServletApi api, Object request) {
        this.permits = permits;
        this.api = api;
        this.request = request;
    }

    /** Takes over the permits held in {@code scratch} (which is left holding none). */
    static AsyncRelease takeFrom(RequestScratch scratch, ServletApi api, Object request) {
        return new AsyncRelease(scratch.permits.takeAll(), api, request);
    }

    /** Gives the permits back, once; never throws. */
    void release() {
        if (released.compareAndSet(false, true)) {
            permits.releaseTo(0);
        }
    }

    boolean isReleased() {
        return released.get();
    }

    @Override
    public Object invoke(Object proxy, Method method, Object[] args) throws Throwable {
        switch (method.getName()) {
            case "onComplete", "onError", "onTimeout" -> release();
            case "onStartAsync" -> {
                if (!released.get()) {
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
