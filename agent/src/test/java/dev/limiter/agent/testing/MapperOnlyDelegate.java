package dev.limiter.agent.testing;

import dev.limiter.bootstrap.MethodDelegate;
import java.util.function.Function;

/**
 * A {@link MethodDelegate} for tests of woven {@code ExceptionMapper}s: woven methods run unlimited (no token,
 * nothing to release), and {@code toResponse} asks the given function whether an exception is a rejection.
 */
public final class MapperOnlyDelegate implements MethodDelegate {

    private final Function<Object, Object> rejectionResponse;

    /** @param rejectionResponse the response for a rejection, null for any other exception (the mapper runs) */
    public MapperOnlyDelegate(Function<Object, Object> rejectionResponse) {
        this.rejectionResponse = rejectionResponse;
    }

    @Override
    public Object onMethodEnter(int site, Object keyArgument, long cost) {
        return null;
    }

    @Override
    public void onMethodExit(int site, Object token) {
    }

    @Override
    public Object rejectionResponse(Object exception) {
        return rejectionResponse.apply(exception);
    }
}
