package dev.limiter.bootstrap;

/**
 * The agent's side of a woven HTTP client's call method ({@code java.net.http.HttpClient.send} and
 * {@code sendAsync}), called through {@link ClientBridge}. The client, request and handlers are the library's own
 * objects typed as {@code Object}: the bootstrap loader may not see the library.
 *
 * <p>A call ends after its method returns when it is asynchronous (the future completes later), so what the call
 * holds is handed over as in {@link ReactiveDelegate}: {@link #onExchangeReturn} gets the method's result and the
 * token {@link ClientBridge#hold held} at the start, {@link #onExchangeFailed} the token of a call that threw.
 */
public interface ClientDelegate extends ReactiveDelegate {

    /**
     * Called once per call, before the client sends anything, on the calling thread. A blocking call
     * ({@code async} false) may be parked here until its permit comes ({@code on-limit: wait}).
     *
     * @param client  the client whose method was called
     * @param request the request
     * @param handler the body handler
     * @param push    the push-promise handler, or null
     * @param async   true if the method returns a future of the response
     * @return null to run the call; for a blocking call, the {@code Throwable} it throws instead (the rejection);
     *     for an asynchronous one, the future it returns instead (failed with the rejection, or the call delayed)
     */
    Object onCallStart(Object client, Object request, Object handler, Object push, boolean async);

    /** Not used for client calls: {@link #onCallStart} is. */
    @Override
    default Object onExchangeStart(Object request, Object response) {
        return null;
    }
}
