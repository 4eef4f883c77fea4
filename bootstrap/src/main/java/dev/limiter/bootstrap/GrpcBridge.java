package dev.limiter.bootstrap;

/**
 * The entry point woven gRPC server code calls: grpc-java's stub call handlers
 * ({@code io.grpc.stub.ServerCalls$UnaryServerCallHandler.startCall(ServerCall, Metadata)} and
 * {@code ...$StreamingServerCallHandler.startCall}), once per call, before the service method sees it:
 *
 * <pre>
 *   Object ours = GrpcBridge.enter(call, headers);    // null: start the call
 *   if (ours != null) return (ServerCall.Listener) ours;  // the rejection: the call is closed already
 *   ... every return value r becomes (ServerCall.Listener) GrpcBridge.exit(r); a throw calls GrpcBridge.failed()
 * </pre>
 *
 * <p>The same shape as {@link ReactiveBridge} and the same {@link ReactiveDelegate} contract (a call ends after
 * {@code startCall} returns, so what it holds is handed to the returned listener), but its own delegate and
 * per-thread slot: WebFlux and gRPC can serve in one JVM, and each adapter installs itself. A token the delegate
 * holds ({@link #hold}) is kept per thread only between {@link #enter} and the {@link #exit} or {@link #failed} of
 * the same {@code startCall} on the same thread. Nothing thrown by the delegate reaches grpc-java: it is counted
 * in {@link LimiterBridge#internalErrors()} and the call proceeds unchanged. While the bridge is disabled
 * ({@link LimiterBridge#setEnabled}) or no delegate is installed, every call runs untouched.
 */
public final class GrpcBridge {

    private static final DelegatedCalls CALLS = new DelegatedCalls();

    private GrpcBridge() {
    }

    /** Before the handler: null to start the call, else the listener to return instead (the call is closed). */
    public static Object enter(Object call, Object headers) {
        return CALLS.enter(call, headers);
    }

    /** Called by the delegate inside {@link ReactiveDelegate#onExchangeStart}: keep {@code token} for the return. */
    public static void hold(Object token) {
        CALLS.hold(token);
    }

    /** At each return of the handler: {@code listener}, or it wrapped to give back what {@link #enter} held. */
    public static Object exit(Object listener) {
        return CALLS.exit(listener);
    }

    /** When the handler throws: give back what {@link #enter} held. */
    public static void failed() {
        CALLS.failed();
    }

    /** Installs the agent's gRPC delegate (null uninstalls: every call then runs untouched). */
    public static void install(ReactiveDelegate newDelegate) {
        CALLS.install(newDelegate);
    }

    /** The installed delegate, or null. */
    public static ReactiveDelegate delegate() {
        return CALLS.delegate();
    }
}
