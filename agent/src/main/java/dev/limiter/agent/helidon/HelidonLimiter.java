package dev.limiter.agent.helidon;

import dev.limiter.agent.http.HttpGate;
import dev.limiter.agent.threads.SlotPool;
import dev.limiter.agent.threads.VirtualThreads;
import dev.limiter.bootstrap.HandlerBridge;
import dev.limiter.bootstrap.HandlerDelegate;
import dev.limiter.rules.RuleSet;

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
    /** Calls borrowed at the entry and given back when the request is done with them (see {@link HelidonCall}). */
    private final SlotPool<HelidonCall> virtualThreads = new SlotPool<>();
    private final SlotPool<HelidonCall> otherThreads = new SlotPool<>();

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
        HelidonCall call = borrow(VirtualThreads.current());
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

    /** A pooled call, or a new one if none is free; {@code virtual}: whether it may park ({@link HelidonCall}). */
    private HelidonCall borrow(boolean virtual) {
        SlotPool<HelidonCall> pool = virtual ? virtualThreads : otherThreads;
        HelidonCall call = pool.take();
        return call != null ? call : new HelidonCall(virtual, pool);
    }
}
