package dev.limiter.agent.decision;

import dev.limiter.rules.response.HeaderText;
import dev.limiter.rules.response.ResponseSpec;

/**
 * Puts the {@code response:} section's headers on one server's response (or gRPC trailers): a
 * {@link ResponseSpec.HeaderSink} that calls {@link #put} through the server's API ({@code A}) and keeps the first
 * failure instead of throwing it into {@code ResponseSpec}. One per thread, re-aimed at each response, so writing
 * headers creates no lambda; each adapter says only how one header is put.
 */
public abstract class HeaderTarget<A> implements ResponseSpec.HeaderSink {

    private A api;
    private Object target;
    private Throwable failure;

    /** Puts one header on {@code target} through {@code api}. */
    protected abstract void put(A api, Object target, String name, String value) throws Throwable;

    /**
     * Writes {@code spec}'s headers for the outcome {@code out} on {@code target} ({@code rejected}: those of a
     * rejection, with {@code Retry-After}; {@code nowMillis}: the clock the reset time was read on), and throws the
     * first failure once all were tried; nothing of the response is kept afterwards.
     */
    public final void write(A api, Object target, ResponseSpec spec, HeaderText text, long[] out, boolean rejected,
            long nowMillis) throws Throwable {
        this.api = api;
        this.target = target;
        this.failure = null;
        try {
            spec.headers(text, out, rejected, nowMillis, this);
        } finally {
            this.api = null;
            this.target = null;
        }
        Throwable first = failure;
        failure = null;
        if (first != null) {
            throw first;
        }
    }

    @Override
    public final void header(String name, String value) {
        try {
            put(api, target, name, value);
        } catch (Throwable t) {
            if (failure == null) {
                failure = t;
            }
        }
    }
}
