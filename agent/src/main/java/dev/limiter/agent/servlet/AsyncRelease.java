package dev.limiter.agent.servlet;

import dev.limiter.agent.http.PermitRelease;
import dev.limiter.agent.http.PermitsProxy;

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
final class AsyncRelease extends PermitsProxy {

    private final ServletApi api;
    private final Object request;

    private AsyncRelease(PermitRelease permits, ServletApi api, Object request) {
        super("limiter permits of an async request", permits);
        this.api = api;
        this.request = request;
    }

    /** Takes over the permits held in {@code scratch} (which is left holding none). */
    static AsyncRelease takeFrom(RequestScratch scratch, ServletApi api, Object request) {
        return new AsyncRelease(new PermitRelease(scratch.permits, api), api, request);
    }

    @Override
    protected Object call(Object proxy, String name, Object[] args) throws Throwable {
        switch (name) {
            case "onComplete", "onError", "onTimeout" -> release();
            case "onStartAsync" -> {
                if (!released()) {
                    api.addAsyncListener(request, this);
                }
            }
            default -> {
                // nothing else to do
            }
        }
        return null;
    }
}
