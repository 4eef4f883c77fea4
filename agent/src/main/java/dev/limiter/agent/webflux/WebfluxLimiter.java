package dev.limiter.agent.webflux;

import dev.limiter.agent.decision.Decider;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.jmx.JmxGate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.ReactiveBridge;
import dev.limiter.bootstrap.ReactiveDelegate;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * The WebFlux adapter of the decision, called from the woven {@code HttpWebHandlerAdapter.handle} through
 * {@link ReactiveBridge} on the event loop: match the current rules on method and path, run the {@link Decider},
 * and either let the exchange through (rate-limit headers set on the response, concurrency permits handed to a
 * {@link PermitRelease} that the returned {@code Mono} gives back when it ends) or return the rejection's
 * {@code Mono} instead of running the handler.
 *
 * <p>Never blocks and never throws into the server: rules come from the holder (a volatile read), strategies
 * run on the local store without locks, and failures are counted, logged (throttled) and leave the exchange
 * alone. Each exchange is decided once: {@code handle} runs once per request on Reactor Netty (no
 * forward, include or error re-dispatch exists in WebFlux).
 */
public final class WebfluxLimiter implements ReactiveDelegate {

    /** Per event-loop thread (anonymous class, not a lambda: nothing to spin on the first exchange). */
    private static final ThreadLocal<ExchangeScratch> SCRATCH = new ThreadLocal<>() {
        @Override
        protected ExchangeScratch initialValue() {
            return new ExchangeScratch();
        }
    };

    private final RuleSetHolder holder;
    private final ThrottledLog log;
    private final Decider decider;
    private final WebfluxResponses responses = new WebfluxResponses();
    private volatile boolean served;

    public WebfluxLimiter(RuleSetHolder holder, ThrottledLog log) {
        this.holder = holder;
        this.log = log;
        this.decider = new Decider(log);
    }

    /** Puts a WebFlux limiter over {@code holder} into the bridge: exchanges are checked from now on. */
    public static void install(RuleSetHolder holder, ThrottledLog log) {
        ReactiveBridge.install(new WebfluxLimiter(holder, log));
    }

    @Override
    public Object onExchangeStart(Object request, Object response) {
        if (!served) { // the servlet adapter opens the gate at its first request; a WebFlux server has none
            served = true;
            JmxGate.firstRequestServed();
        }
        RuleSet rules = holder.current();
        if (rules.maxHttpMatches() == 0) {
            return null; // no HTTP rule: do not touch the exchange at all
        }
        WebfluxApi api = WebfluxApi.of(request);
        if (!api.supported) {
            log.warn("limiter: this Spring WebFlux is not supported (Spring 6 or later is); requests run unlimited",
                    api.problem);
            return null;
        }
        ExchangeScratch scratch = SCRATCH.get();
        String path;
        int count;
        try {
            path = scratch.path(api, request);
            count = scratch.match(rules, api.method(request), path);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            log.warn("limiter: could not match the request; it is allowed", t);
            return null;
        }
        if (count == 0) {
            return null;
        }
        try {
            scratch.begin(rules, api, request, path);
            Rule rejecting = decider.decide(scratch.matched(), count, scratch);
            if (rejecting != null) {
                return responses.reject(api, response, rules.response(), rejecting, scratch.rejectText, scratch.out,
                        scratch.headers, log);
            }
            if (scratch.bindingRule != null) {
                responses.headers(api, response, rules.response(), scratch.bindingRule, scratch.bindingText,
                        scratch.binding, scratch.headers, log);
            }
            if (scratch.permits.height() > 0) {
                ReactiveBridge.hold(new PermitRelease(scratch.permits.takeAll(), api));
            }
            return null;
        } finally {
            scratch.end();
        }
    }

    @Override
    public Object onExchangeReturn(Object result, Object token) {
        PermitRelease release = (PermitRelease) token;
        if (result == null) { // no publisher to wait for: the exchange is over as far as we can tell
            release.release();
            return null;
        }
        try {
            return release.api.doFinally(result, release);
        } catch (Throwable t) {
            release.release();
            LimiterBridge.countInternalError();
            log.warn("limiter: could not wait for the end of an exchange; its permits are released now", t);
            return result;
        }
    }

    @Override
    public void onExchangeFailed(Object token) {
        ((PermitRelease) token).release();
    }
}
