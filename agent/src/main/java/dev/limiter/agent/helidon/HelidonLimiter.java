package dev.limiter.agent.helidon;

import dev.limiter.agent.http.HttpGate;
import dev.limiter.bootstrap.HandlerBridge;
import dev.limiter.bootstrap.HandlerDelegate;
import dev.limiter.rules.RuleSet;
import java.lang.invoke.MethodHandle;
import java.lang.invoke.MethodHandles;
import java.lang.invoke.MethodType;

/**
 * The Helidon 4 WebServer entry: the woven {@code HttpRoutingImpl.route(ctx, request, response)} calls it through
 * {@link HandlerBridge} once per request, before the routing's filters and handlers, on the request's thread, and
 * it hands the request to the {@link HttpGate} through {@link HelidonApi}: a rejection is sent and routing does not
 * run. The handler ends when {@code route} returns (Helidon's handlers answer on their own thread), so the permits
 * of an admitted request go back at the woven method's exit: the token returned is the request's
 * {@link HelidonCall}.
 *
 * <p>On a virtual thread (Helidon's, one per connection or HTTP/2 stream) a rule with {@code on-limit: wait} parks
 * the thread until its reserved permit is due, as a servlet container's thread does; on any other thread (no
 * Helidon 4 runs requests on one) such a rule takes a free permit or rejects at once.
 */
public final class HelidonLimiter implements HandlerDelegate {

    private final HttpGate gate;
    private final CallPool virtualThreads = new CallPool(true);
    private final CallPool otherThreads = new CallPool(false);

    public HelidonLimiter(HttpGate gate) {
        this.gate = gate;
    }

    @Override
    public Object onHandlerEnter(Object request, Object response) {
        RuleSet rules = gate.httpRules();
        if (rules == null) {
            return null;
        }
        HelidonApi api = HelidonApi.of(request);
        if (!gate.supports(api)) {
            return null;
        }
        HelidonCall call = (onVirtualThread() ? virtualThreads : otherThreads).take();
        call.request = request;
        call.response = response;
        Object answer;
        try {
            answer = gate.check(rules, api, call, call, call);
        } finally {
            call.clear();
        }
        if (answer == null && call.permits.height() > 0) {
            return call; // run by the woven method's exit
        }
        call.run(); // nothing held (a rejection holds nothing): back to the pool
        return answer == null ? null : HandlerBridge.ANSWERED;
    }

    private static boolean onVirtualThread() {
        MethodHandle isVirtual = VirtualThreads.IS_VIRTUAL;
        if (isVirtual == null) {
            return false;
        }
        try {
            return (boolean) isVirtual.invokeExact(Thread.currentThread());
        } catch (Throwable t) {
            return false;
        }
    }

    /** {@code Thread.isVirtual}, looked up at the first request decided, not at start-up. */
    private static final class VirtualThreads {

        static final MethodHandle IS_VIRTUAL = isVirtualHandle();

        private static MethodHandle isVirtualHandle() {
            try {
                return MethodHandles.publicLookup().findVirtual(Thread.class, "isVirtual",
                        MethodType.methodType(boolean.class));
            } catch (ReflectiveOperationException java17) {
                return null; // no virtual threads, and no Helidon 4 either
            }
        }
    }
}
