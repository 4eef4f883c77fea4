package dev.limiter.bootstrap;

/**
 * The entry point woven reactive server code calls ({@code HttpWebHandlerAdapter.handle} in Spring WebFlux):
 *
 * <pre>
 *   Object ours = ReactiveBridge.enter(request, response);   // null: run the handler
 *   if (ours != null) return (Mono) ours;                    // the rejection
 *   ... every return value r becomes (Mono) ReactiveBridge.exit(r); a throw calls ReactiveBridge.failed()
 * </pre>
 *
 * <p>Why a class of its own beside {@link LimiterBridge}: a reactive handler returns before its exchange ends, so
 * nothing is released at the method's exit; instead the returned publisher is wrapped. A token the delegate
 * holds ({@link #hold}) is kept per thread only between {@link #enter} and the {@link #exit} or {@link #failed}
 * of the same call on the same thread (the handler's assembly is synchronous), so an exchange that holds nothing
 * costs one thread-local read at its return. Nothing thrown by the delegate reaches the application: it is
 * counted in {@link LimiterBridge#internalErrors()} and the exchange proceeds unchanged. While the bridge is
 * disabled ({@link LimiterBridge#setEnabled}) or no delegate is installed, every exchange runs untouched.
 */
public final class ReactiveBridge {

    private static final DelegatedCalls CALLS = new DelegatedCalls();

    private ReactiveBridge() {
    }

    /** Before the handler: null to run it, else the publisher to return instead (the rejection). */
    public static Object enter(Object request, Object response) {
        return CALLS.enter(request, response);
    }

    /** Called by the delegate inside {@link ReactiveDelegate#onExchangeStart}: keep {@code token} for the return. */
    public static void hold(Object token) {
        CALLS.hold(token);
    }

    /** At each return of the handler: {@code result}, or it wrapped to give back what {@link #enter} held. */
    public static Object exit(Object result) {
        return CALLS.exit(result);
    }

    /** When the handler throws: give back what {@link #enter} held. */
    public static void failed() {
        CALLS.failed();
    }

    /** Installs the agent's delegate (null uninstalls: every exchange then runs untouched). */
    public static void install(ReactiveDelegate newDelegate) {
        CALLS.install(newDelegate);
    }

    /** The installed delegate, or null. */
    public static ReactiveDelegate delegate() {
        return CALLS.delegate();
    }
}
