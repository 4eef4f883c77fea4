package dev.limiter.bootstrap;

/**
 * What the agent plugs into {@link LimiterBridge} for woven methods: JAX-RS resource methods and plain methods
 * named by {@code method:} rules. The decision code lives in the agent's isolated class loader.
 *
 * <p>A woven method is identified by a <em>site</em>: an int the agent assigned when it wove the method (it
 * knows the class, the method and which argument the key comes from). Only JDK types appear here, for the same
 * reason as in {@link BridgeDelegate}: woven code in any class loader reaches the agent through this interface.
 */
public interface MethodDelegate {

    /**
     * Called at the entry of a woven method.
     *
     * @param site        the site id the agent gave the method when it wove it
     * @param keyArgument the argument the agent chose as the key source at weave time ({@code arg:N}, or the
     *                    {@code @PathParam} argument for {@code path-param:NAME}), boxed if primitive; null when
     *                    no rule of the site keys on an argument
     * @param cost        the value of the argument the agent chose at weave time for {@code cost: arg:N} (an
     *                    integer widened to long, an array's length or a collection's size); 1 when no rule of
     *                    the site reads its cost from an argument
     * @return null to run the method with nothing to release; a {@link Throwable} to throw instead of running
     *     the method (the rejection); any other object is a token handed back to {@link #onMethodExit}
     */
    Object onMethodEnter(int site, Object keyArgument, long cost);

    /** Called when the woven method returns or throws, with the token {@link #onMethodEnter} returned. */
    void onMethodExit(int site, Object token);

    /**
     * For woven {@code ExceptionMapper.toResponse}: if {@code exception} is a rejection this delegate threw,
     * the JAX-RS {@code Response} to return instead of whatever the application's mapper would make of it;
     * otherwise null (the mapper runs).
     */
    Object rejectionResponse(Object exception);
}
