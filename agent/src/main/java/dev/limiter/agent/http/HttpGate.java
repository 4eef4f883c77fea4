package dev.limiter.agent.http;

import dev.limiter.agent.decision.Decider;
import dev.limiter.agent.decision.Waiting;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * The one gate every HTTP server's entry goes through, in the style of OpenTelemetry's {@code Instrumenter}: the
 * server's binding supplies getters and setters ({@link HttpServerApi}); the gate does the rest, the same way for
 * every server: the rules in force, the first-request bookkeeping, match on method and path, the {@link Decider},
 * the wait of an {@code on-limit: wait} rule, the rejection or the rate-limit headers ({@link RejectionRenderer}),
 * and handing the permits of an admitted request to the server's completion ({@link PermitRelease}).
 *
 * <p>Never blocks an event loop and never throws into the server: rules come from the holder (a volatile read),
 * strategies run without locks, a rule that would wait rejects at once where the thread must not park, and every
 * failure of the agent's own is counted in the bridge's internal errors, logged (throttled), and leaves the
 * request alone. Allowed path: no locks, no logging, no allocation beyond what the server's completion needs.
 */
public final class HttpGate {

    private final RuleSetHolder holder;
    private final ThrottledLog log;
    private final Decider decider;
    private final boolean opensJmx;

    /**
     * {@code opensJmx}: the first request opens the JMX registration ({@link FirstRequest}); false for servlets,
     * whose first-request delegate opens it when that request ends.
     */
    public HttpGate(RuleSetHolder holder, ThrottledLog log, boolean opensJmx) {
        this.holder = holder;
        this.log = log;
        this.decider = new Decider(log);
        this.opensJmx = opensJmx;
    }

    /** The log the gate's bindings report to. */
    public ThrottledLog log() {
        return log;
    }

    /**
     * The rules in force if any of them is an {@code http:} rule, else null: then the request is not touched at
     * all. The first look of every entry.
     */
    public RuleSet httpRules() {
        if (opensJmx) {
            FirstRequest.seen();
        }
        RuleSet rules = holder.current();
        return rules.maxHttpMatches() == 0 ? null : rules;
    }

    /** True if {@code api} can serve; else says why (throttled), and its requests run unlimited. */
    public boolean supports(HttpServerApi api) {
        if (api.supported) {
            return true;
        }
        log.warn(Warning.UNSUPPORTED,
                "limiter: this " + api.server + " is not supported; http rules do not apply to its requests",
                api.problem);
        return false;
    }

    /**
     * Decides {@code request} of {@code api}'s server against {@code rules}: null to run the handler, else what the
     * woven entry returns instead (the rejection is written). A request the server dispatches again (a forward, an
     * async or error dispatch) is decided at its first dispatch only ({@link HttpServerApi#firstDispatch}).
     */
    public Object check(RuleSet rules, HttpServerApi api, Object request, Object response, HttpExchange exchange) {
        String path;
        int count;
        try {
            if (!api.firstDispatch(request)) {
                return null;
            }
            path = exchange.rulePath(api, request);
            count = exchange.match(rules, api.method(request), path);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            log.warn(Warning.DECISION, "limiter: could not match the request; it is allowed", t);
            return null;
        }
        if (count == 0) {
            return null;
        }
        try {
            exchange.begin(rules, api, request, path);
            int base = exchange.permits.height();
            Rule rejecting = decider.decide(exchange.matched(), count, exchange);
            if (rejecting == null) {
                rejecting = Waiting.awaitReserved(exchange, base);
                if (rejecting != null) { // interrupted while waiting (the server is stopping)
                    return RejectionRenderer.reject(api, response, rules.response(), rejecting,
                            rejecting.headerText(), exchange.out, exchange, log);
                }
            } else {
                return RejectionRenderer.reject(api, response, rules.response(), rejecting, exchange.rejectText,
                        exchange.out, exchange, log);
            }
            if (exchange.bindingRule != null) {
                RejectionRenderer.headers(api, response, rules.response(), exchange, log);
            }
            if (exchange.permits.height() > base) {
                holdUntilEnd(api, request, exchange, base);
            }
            return null;
        } finally {
            exchange.end();
        }
    }

    private void holdUntilEnd(HttpServerApi api, Object request, HttpExchange exchange, int base) {
        try {
            api.holdUntilEnd(request, exchange);
        } catch (Throwable t) {
            exchange.permits.releaseTo(base);
            LimiterBridge.countInternalError();
            log.warn(Warning.RELEASE,
                    "limiter: could not wait for the end of a request; its permits are released now", t);
        }
    }
}
