package dev.limiter.bootstrap;

/**
 * The entry point a woven HTTP client calls ({@code jdk.internal.net.http.HttpClientFacade.send} and
 * {@code sendAsync} for {@code java.net.http.HttpClient}), once per call, before anything is sent:
 *
 * <pre>
 *   Object ours = ClientBridge.enter(this, request, handler, push, async);  // null: send it
 *   if (ours != null) throw (Throwable) ours;         // send: the rejection
 *   if (ours != null) return (CompletableFuture) ours; // sendAsync: failed, or the call delayed
 *   ... every return value r becomes ClientBridge.exit(r); a throw calls ClientBridge.failed()
 * </pre>
 *
 * <p>A token the delegate holds ({@link #hold}: permits to give back, keys a {@code Retry-After} answer pauses) is
 * kept per thread only between {@link #enter} and the {@link #exit} or {@link #failed} of the same call, as for
 * {@link ReactiveBridge}. The delegate's own calls of the client (a delayed call sent later) pass through
 * untouched ({@link #untouched}). Nothing thrown by the delegate reaches the application: it is counted in
 * {@link LimiterBridge#internalErrors()} and the call goes on unchanged. While the bridge is disabled
 * ({@link LimiterBridge#setEnabled}) or no delegate is installed, every call runs untouched.
 */
public final class ClientBridge {

    private static final DelegatedCalls CALLS = new DelegatedCalls();

    /** Set while the delegate itself calls the client: that call was decided already. */
    private static final ThreadLocal<Boolean> UNTOUCHED = new ThreadLocal<>();
    /** True while the rules in force hold an {@code http-client} rule ({@link #clientRules}). */
    private static volatile boolean clientRules;

    private ClientBridge() {
    }

    /** Before the call: null to send it, else the rejection to throw or the future to return instead. */
    public static Object enter(Object client, Object request, Object handler, Object push, boolean async) {
        if (UNTOUCHED.get() != null) {
            return null;
        }
        return CALLS.enterCall(client, request, handler, push, async);
    }

    /**
     * True if a call may be decided at all: some rule in force is an {@code http-client} rule and the bridge is
     * enabled. A woven method whose arguments must first be packed ({@code executeImmediate}'s five, in one
     * array) asks this before packing them, so a JVM without client rules allocates nothing per call.
     */
    public static boolean deciding() {
        return clientRules && LimiterBridge.isEnabled();
    }

    /** The agent says whether the rules in force hold an {@code http-client} rule, at start and at each reload. */
    public static void clientRules(boolean present) {
        clientRules = present;
    }

    /** Called by the delegate inside {@link ClientDelegate#onCallStart}: keep {@code token} for the return. */
    public static void hold(Object token) {
        CALLS.hold(token);
    }

    /** At each return of the call method: {@code result}, or what the delegate makes of it. */
    public static Object exit(Object result) {
        return CALLS.exit(result);
    }

    /** When the call method throws: give back what {@link #enter} held. */
    public static void failed() {
        CALLS.failed();
    }

    /** Runs {@code call} (the delegate's own call of the client) without deciding it again. */
    public static void untouched(Runnable call) {
        UNTOUCHED.set(Boolean.TRUE);
        try {
            call.run();
        } finally {
            UNTOUCHED.remove();
        }
    }

    /** Installs the agent's delegate (null uninstalls: every call then runs untouched). */
    public static void install(ClientDelegate newDelegate) {
        CALLS.install(newDelegate);
    }

    /** The installed delegate, or null. */
    public static ClientDelegate delegate() {
        return (ClientDelegate) CALLS.delegate();
    }
}
