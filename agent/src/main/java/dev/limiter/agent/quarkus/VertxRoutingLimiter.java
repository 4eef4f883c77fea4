package dev.limiter.agent.quarkus;

import dev.limiter.agent.decision.Decider;
import dev.limiter.agent.decision.RoutedPaths;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.jmx.JmxGate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RoutingBridge;
import dev.limiter.bootstrap.RoutingDelegate;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * The {@code http:} rules on Vert.x Web (Quarkus and any Vert.x Web 4.5 application), called from the woven
 * {@code RoutingContextImpl.route()} through {@link RoutingBridge} on the event loop, once per request before any
 * route handler: match the current rules on method and path, run the {@link Decider}, and either let the request
 * be routed (rate-limit headers set on the response, concurrency permits handed to a {@link RoutingRelease} that
 * the context's end handlers run) or write the rejection and stop routing.
 *
 * <p>Never blocks and never throws into the server: rules come from the holder (a volatile read), strategies run
 * on the local store without locks, a rule that would wait rejects at once on the event loop
 * ({@code Waiting.mayPark}), and failures are counted, logged (throttled) and leave the request alone. A request
 * that then reaches a woven resource method is checked again there by its {@code jaxrs:} rules: separate rules,
 * each counted once.
 */
public final class VertxRoutingLimiter implements RoutingDelegate {

    /** Per event-loop thread (anonymous class, not a lambda: nothing to spin on the first request). */
    private static final ThreadLocal<RoutingScratch> SCRATCH = new ThreadLocal<>() {
        @Override
        protected RoutingScratch initialValue() {
            return new RoutingScratch();
        }
    };

    private final RuleSetHolder holder;
    private final ThrottledLog log;
    private final Decider decider;
    private final RoutingResponses responses = new RoutingResponses();
    private volatile boolean served;

    public VertxRoutingLimiter(RuleSetHolder holder, ThrottledLog log) {
        this.holder = holder;
        this.log = log;
        this.decider = new Decider(log);
    }

    /** Puts a Vert.x Web limiter over {@code holder} into the bridge: requests are checked from now on. */
    public static void install(RuleSetHolder holder, ThrottledLog log) {
        RoutingBridge.install(new VertxRoutingLimiter(holder, log));
    }

    @Override
    public boolean onRouting(Object context) {
        if (!served) { // the servlet adapter opens the gate at its first request; a Vert.x server has none
            served = true;
            JmxGate.firstRequestServed();
        }
        RuleSet rules = holder.current();
        if (rules.maxHttpMatches() == 0) {
            return false; // no HTTP rule: do not touch the request at all
        }
        RoutingApi api = RoutingApi.of(context);
        if (!api.supported) {
            log.warn("limiter: this Vert.x Web is not supported (4.5 is); http rules do not apply to its requests",
                    api.problem);
            return false;
        }
        RoutingScratch scratch = SCRATCH.get();
        Object request;
        String path;
        int count;
        try {
            request = api.request(context);
            path = RoutedPaths.ruleView(api.normalizedPath(context));
            count = scratch.match(rules, api.method(request), path);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            log.warn("limiter: could not match the request; it is allowed", t);
            return false;
        }
        if (count == 0) {
            return false;
        }
        try {
            scratch.begin(rules, api, request, path);
            Rule rejecting = decider.decide(scratch.matched(), count, scratch);
            if (rejecting != null) {
                return responses.reject(api, api.response(context), rules.response(), rejecting, scratch.rejectText,
                        scratch.out, scratch.headers, log);
            }
            if (scratch.bindingRule != null) {
                responses.headers(api, api.response(context), rules.response(), scratch.bindingRule,
                        scratch.bindingText, scratch.binding, scratch.headers, log);
            }
            if (scratch.permits.height() > 0) {
                releaseAtEnd(api, context, new RoutingRelease(scratch.permits.takeAll()));
            }
            return false;
        } catch (Throwable t) {
            // Decider catches the rules' own failures; this is reading the response from the context
            scratch.permits.releaseTo(0);
            LimiterBridge.countInternalError();
            log.warn("limiter: could not decide the request; it is allowed", t);
            return false;
        } finally {
            scratch.end();
        }
    }

    /** Hands the permits to the context's end handlers, or gives them back now if that fails. */
    private void releaseAtEnd(RoutingApi api, Object context, RoutingRelease release) {
        try {
            api.whenEnded(context, release);
        } catch (Throwable t) {
            release.release();
            LimiterBridge.countInternalError();
            log.warn("limiter: could not wait for the end of a request; its permits are released now", t);
        }
    }
}
