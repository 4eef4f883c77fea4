package dev.limiter.agent.servlet;

import dev.limiter.agent.decision.Decider;
import dev.limiter.agent.decision.Waiting;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * The servlet adapter of the decision: for the outermost servlet/filter entry of a request, match the current
 * rules, run the {@link Decider} over them, and either let the request through (with rate-limit headers) or
 * write the rejection and skip the servlet.
 *
 * <p>The rules are read from the holder on every request, so a reload changes behaviour without re-weaving;
 * with no HTTP rule at all the request is not even looked at. Each request is counted once: the bridge's depth
 * guard covers nesting on one thread, and only the container's first dispatch of a request counts (async,
 * error and re-dispatches that enter on a new thread or at depth 0 do not; {@link ServletApi#firstDispatch}).
 *
 * <p>A rule with {@code on-limit: wait} (and its {@code max-waiters}) reserves the request's permit for the time it
 * accrues; the container's thread then parks until then ({@link Waiting}) before the servlet runs: the cost of a
 * thread per waiting request is the operator's explicit choice, cheap on virtual threads. An interrupt gives the
 * permit back and answers 429.
 *
 * <p>Allowed path: no locks, no logging, buffers (and the last match) reused from {@link RequestScratch};
 * rate-limit header values come from the rule's kept texts, so only a value never sent before costs a string
 * (see docs/agent.md, "Cost on the request path").
 */
public final class ServletLimiter implements BridgeDelegate {

    /** Request attribute that marks a request as already counted (public for the benchmarks). */
    public static final String COUNTED = "dev.limiter.counted";

    private final RuleSetHolder holder;
    private final ThrottledLog log;
    private final Decider decider;
    private final RejectionWriter writer = new RejectionWriter();
    private final ScratchPool scratchPool = new ScratchPool();

    public ServletLimiter(RuleSetHolder holder, ThrottledLog log) {
        this.holder = holder;
        this.log = log;
        this.decider = new Decider(log);
    }

    @Override
    public boolean onRequestStart(RequestFrame frame) {
        RuleSet rules = holder.current();
        if (rules.maxHttpMatches() == 0) {
            return false; // no HTTP rule: do not touch the request at all
        }
        Object request = frame.request();
        ServletApi api = ServletApi.of(request);
        if (!api.supported) {
            return false;
        }
        RequestScratch scratch = scratch(frame);
        String path;
        int count;
        try {
            if (!api.firstDispatch(request, COUNTED)) {
                return false;
            }
            path = scratch.paths.path(api, request);
            String method = api.method(request);
            count = scratch.match(rules, method, path);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            log.warn("limiter: could not match the request; it is allowed", t);
            return false;
        }
        if (count == 0) {
            return false;
        }
        try {
            return decide(api, request, frame.response(), rules, path, scratch, count);
        } finally {
            scratch.end();
        }
    }

    private boolean decide(ServletApi api, Object request, Object response, RuleSet rules, String path,
            RequestScratch scratch, int count) {
        scratch.begin(rules, api, request, path);
        int base = scratch.permits.height();
        Rule rejecting = decider.decide(scratch.matched(), count, scratch);
        if (rejecting != null) {
            writer.reject(api, response, rules.response(), rejecting, scratch.rejectText, scratch.out, scratch.headers,
                    log);
            return true;
        }
        if (scratch.waitNanos > 0 && !Waiting.park(scratch.waitNanos)) {
            // interrupted (the container is stopping): the reserved permits go back, the request gets the 429
            Rule waited = scratch.waitRule;
            scratch.refundReservations();
            scratch.permits.releaseTo(base);
            Thread.currentThread().interrupt();
            Outcome.reject(scratch.out, 0, System.currentTimeMillis(), 0, 0);
            writer.reject(api, response, rules.response(), waited, waited.headerText(), scratch.out, scratch.headers,
                    log);
            return true;
        }
        scratch.clearReservations();
        if (scratch.bindingRule != null) {
            writer.headers(api, response, rules.response(), scratch.bindingRule, scratch.bindingText, scratch.binding,
                    scratch.headers, log);
        }
        return false;
    }

    /**
     * Gives back concurrency permits when the request ends. If the servlet started async processing, the
     * request ends later, on another thread: the permits move to an {@link AsyncRelease} listening on the
     * request's async context. If that cannot be arranged, they are released now (never leaked). A virtual
     * thread's buffers go back to the pool.
     */
    @Override
    public void onRequestEnd(RequestFrame frame) {
        Object scratch = frame.scratch();
        if (!(scratch instanceof RequestScratch s)) {
            return;
        }
        if (s.permits.height() > 0) {
            releasePermits(frame, s);
        }
        if (s.pooled) { // a virtual thread: its next request, if any, takes buffers from the pool again
            frame.scratch(null);
            scratchPool.give(s);
        }
    }

    private void releasePermits(RequestFrame frame, RequestScratch s) {
        Object request = frame.request();
        ServletApi api = ServletApi.of(request);
        AsyncRelease async = null;
        try {
            if (api.supported && api.asyncStarted(request)) {
                async = AsyncRelease.takeFrom(s, api, request);
                api.addAsyncListener(request, async);
                return;
            }
        } catch (Throwable t) {
            log.warn("limiter: cannot wait for the end of an async request; its permits are released now", t);
            if (async != null) {
                async.release();
            }
        }
        s.permits.releaseTo(0);
    }

    /**
     * The thread's buffers. A platform thread makes them once and keeps them; a virtual thread, which serves
     * one request and ends, takes them from the pool and gives them back in {@link #onRequestEnd}.
     */
    private RequestScratch scratch(RequestFrame frame) {
        Object existing = frame.scratch();
        if (existing instanceof RequestScratch s) {
            return s;
        }
        boolean virtual = ScratchPool.oneRequestThread();
        RequestScratch created = virtual ? scratchPool.take() : null;
        if (created == null) {
            created = new RequestScratch();
            created.pooled = virtual;
        }
        frame.scratch(created);
        return created;
    }

    /** Buffers waiting in the pool for virtual threads (tests). */
    int pooledScratch() {
        return scratchPool.size();
    }
}
