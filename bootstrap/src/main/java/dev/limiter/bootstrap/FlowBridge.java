package dev.limiter.bootstrap;

/**
 * The entry point woven server code calls from a method that takes the request alone and returns the flow of its
 * response (Micronaut's {@code RequestLifecycle.normalFlow(HttpRequest)}, on its Netty server), once per request
 * before any filter or route runs:
 *
 * <pre>
 *   Object ours = FlowBridge.enter(request);             // null: run the flow
 *   if (ours != null) return (ExecutionFlow) ours;       // the rejection, as a response flow
 *   ... every return value r becomes (ExecutionFlow) FlowBridge.exit(r); a throw calls FlowBridge.failed()
 * </pre>
 *
 * <p>The same {@link ReactiveDelegate} contract as {@link ReactiveBridge} and {@link GrpcBridge} (the request's
 * answer comes after the method returns, so what the delegate holds, {@link #hold}, goes with the returned flow),
 * with one argument ({@link ReactiveDelegate#onExchangeStart} gets a null second) and its own delegate and
 * per-thread slot, so this server and WebFlux or gRPC can serve in one JVM. Nothing thrown by the delegate reaches
 * the server: it is counted in {@link LimiterBridge#internalErrors()} and the request proceeds unchanged. While
 * the bridge is disabled ({@link LimiterBridge#setEnabled}) or no delegate is installed, every request runs
 * untouched.
 */
public final class FlowBridge {

    private static final DelegatedCalls CALLS = new DelegatedCalls();

    private FlowBridge() {
    }

    /** Before the flow: null to run it, else the flow to return instead (the rejection). */
    public static Object enter(Object request) {
        return CALLS.enter(request, null);
    }

    /** Called by the delegate inside {@link ReactiveDelegate#onExchangeStart}: keep {@code token} for the return. */
    public static void hold(Object token) {
        CALLS.hold(token);
    }

    /** At each return of the method: {@code flow}, or it wrapped to use what {@link #enter} held. */
    public static Object exit(Object flow) {
        return CALLS.exit(flow);
    }

    /** When the method throws: give back what {@link #enter} held. */
    public static void failed() {
        CALLS.failed();
    }

    /** Installs the agent's delegate (null uninstalls: every request then runs untouched). */
    public static void install(ReactiveDelegate newDelegate) {
        CALLS.install(newDelegate);
    }

    /** The installed delegate, or null. */
    public static ReactiveDelegate delegate() {
        return CALLS.delegate();
    }
}
