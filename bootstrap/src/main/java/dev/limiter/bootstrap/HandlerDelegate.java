package dev.limiter.bootstrap;

/**
 * The agent's side of a woven request handler that serves a request to its end on the calling thread (Helidon 4's
 * {@code HttpRoutingImpl.route}), called through {@link HandlerBridge}. The request and response are the
 * framework's own objects typed as {@code Object}: the bootstrap loader cannot see the framework, and the agent
 * reaches them through method handles.
 */
public interface HandlerDelegate {

    /**
     * Called once per request, before the handler runs, on the thread that runs it.
     *
     * @return null to run the handler; {@link HandlerBridge#ANSWERED} if the delegate answered the request (the
     *     rejection is written) and the handler must not run; or a {@link Runnable} that the woven method runs once
     *     when the handler ends, however it ends (what the request holds, given back)
     */
    Object onHandlerEnter(Object request, Object response);
}
