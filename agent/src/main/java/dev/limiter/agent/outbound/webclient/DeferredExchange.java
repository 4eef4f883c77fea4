package dev.limiter.agent.outbound.webclient;

import dev.limiter.agent.decision.Reservations;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.outbound.CallHold;
import dev.limiter.agent.outbound.OutboundCall;
import dev.limiter.agent.outbound.OutboundCallEnd;
import dev.limiter.agent.outbound.OutboundGate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.RuleSet;
import java.util.function.Supplier;

/**
 * The exchange {@code Mono} of a {@code WebClient} request a rule may limit, decided at each subscription, on the
 * subscribing thread, which is never parked (it may be an event loop): the woven {@code exchange} returns
 * {@code Mono.defer(this)}. Rejected, the subscription fails with Spring's {@code WebClientRequestException} whose
 * cause is the {@code OutboundRateLimitException}; made to wait, the exchange is subscribed later on Reactor's
 * timer ({@link Delayed}); admitted, it is subscribed now, and its end ({@code concurrency},
 * {@code honor-retry-after}) is told when the response comes or the subscription ends ({@link ExchangeEnd}).
 */
final class DeferredExchange implements CallHold, Supplier<Object> {

    private final OutboundGate gate;
    private final WebClientApi api;
    private final Object request;
    /** The exchange as Spring made it: what a subscription that is let through subscribes to. */
    private Object exchange;

    DeferredExchange(OutboundGate gate, WebClientApi api, Object request) {
        this.gate = gate;
        this.api = api;
        this.request = request;
    }

    @Override
    public Object returned(Object result) throws Throwable {
        if (result == null) {
            return null;
        }
        exchange = result;
        return api.defer(this);
    }

    @Override
    public void threw() {
        // nothing was decided: the exchange was never made
    }

    /** A subscription: decides the request now. */
    @Override
    public Object get() {
        RuleSet rules = gate.clientRules();
        if (rules == null) {
            return exchange;
        }
        OutboundCall call = gate.call();
        try {
            api.begin(call, request);
            int verdict = gate.decide(rules, call);
            if (verdict == OutboundGate.REJECT) {
                return api.error((Throwable) api.requestException(OutboundGate.rejection(call), request));
            }
            OutboundCallEnd end = call.endToken();
            if (verdict == OutboundGate.DELAY) {
                Reservations reserved = call.delayed();
                if (reserved == null) { // a Retry-After pause: decided again when it is over
                    return api.delaySubscription(api.defer(this), call.delayNanos());
                }
                return ExchangeEnd.around(api, Delayed.later(api, exchange, call.delayNanos(), reserved, end), end);
            }
            return ExchangeEnd.around(api, exchange, end);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            gate.log().warn(Warning.DECISION,
                    "limiter: could not decide a call of Spring WebClient; it is sent unchecked", t);
            return exchange;
        } finally {
            call.end();
        }
    }
}
