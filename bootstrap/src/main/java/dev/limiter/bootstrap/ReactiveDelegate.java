package dev.limiter.bootstrap;

/**
 * The agent's side of a woven reactive server entry point (Spring WebFlux's
 * {@code HttpWebHandlerAdapter.handle(ServerHttpRequest, ServerHttpResponse)}), called through
 * {@link ReactiveBridge}. Every argument and result is the framework's own object typed as {@code Object}: the
 * bootstrap loader cannot see the framework, and the agent reaches it through method handles.
 */
public interface ReactiveDelegate {

    /**
     * Called once per exchange, before the handler runs, on the thread that calls {@code handle} (an event loop).
     * To keep something until the exchange ends (concurrency permits), the delegate calls
     * {@link ReactiveBridge#hold(Object)} with a token before it returns.
     *
     * @return null to run the handler; otherwise the {@code Mono<Void>} the woven method returns instead (the
     *     rejection, already set on the response)
     */
    Object onExchangeStart(Object request, Object response);

    /**
     * The handler returned {@code result} (its {@code Mono<Void>}) while {@code token} was held: the publisher to
     * return instead, one that gives the token back once however it ends (complete, error or cancel).
     */
    Object onExchangeReturn(Object result, Object token);

    /** The handler threw while {@code token} was held: give it back now. */
    void onExchangeFailed(Object token);
}
