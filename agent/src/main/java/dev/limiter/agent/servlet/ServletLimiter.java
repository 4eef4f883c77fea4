package dev.limiter.agent.servlet;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.http.HttpGate;
import dev.limiter.agent.http.RequestViews;
import dev.limiter.agent.threads.SlotPool;
import dev.limiter.agent.threads.VirtualThreads;
import dev.limiter.bootstrap.BridgeDelegate;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.RequestFrame;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * The servlet entry: the outermost servlet/filter entry of a request hands it to the {@link HttpGate} through
 * {@link ServletApi}, which either lets it through (with rate-limit headers) or writes the rejection, and then the
 * servlet is skipped.
 *
 * <p>The rules are read from the holder on every request, so a reload changes behaviour without re-weaving;
 * with no HTTP rule at all the request is not even looked at. Each request is counted once: the bridge's depth
 * guard covers nesting on one thread, and only the container's first dispatch of a request counts (async,
 * error and re-dispatches that enter on a new thread or at depth 0 do not; {@code ServletApi.firstDispatch}).
 *
 * <p>A rule with {@code on-limit: wait} (and its {@code max-waiters}) reserves the request's permit for the time it
 * accrues; the container's thread then parks until then before the servlet runs: the cost of a
 * thread per waiting request is the operator's explicit choice, cheap on virtual threads. An interrupt gives the
 * permit back and answers 429 (the gate's {@code Waiting.awaitReserved}).
 *
 * <p>Allowed path: no locks, no logging, buffers (and the last match) reused from {@link RequestScratch};
 * rate-limit header values come from the rule's kept texts, so only a value never sent before costs a string
 * (see docs/agent.md, "Cost on the request path").
 */
public final class ServletLimiter implements BridgeDelegate {

    /** Request attribute that marks a request as already counted (public for the benchmarks). */
    public static final String COUNTED = ServletApi.COUNTED;

    private final HttpGate gate;
    private final ThrottledLog log;
    /**
     * Buffers for virtual threads, which live for one request: kept on the thread, as a platform thread keeps
     * them, they would be made (~300 B) for every request. On Java 17 the pool stays empty.
     */
    private final SlotPool<RequestScratch> scratchPool = new SlotPool<>();

    public ServletLimiter(RuleSetHolder holder, ThrottledLog log) {
        this.gate = new HttpGate(holder, log, false);
        this.log = log;
    }

    @Override
    public boolean onRequestStart(RequestFrame frame) {
        RuleSet rules = gate.httpRules();
        if (rules == null) {
            return false;
        }
        Object request = frame.request();
        ServletApi api = ServletApi.of(request);
        if (!api.supported) {
            return false; // not an HTTP request: quietly not limited
        }
        return gate.check(rules, api, request, frame.response(), scratch(frame)) != null;
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
            log.warn(Warning.RELEASE,
                    "limiter: cannot wait for the end of an async request; its permits are released now", t);
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
        boolean virtual = VirtualThreads.current();
        RequestScratch created = virtual ? scratchPool.take() : null;
        if (created == null) {
            created = new RequestScratch();
            created.pooled = virtual;
        }
        frame.scratch(created);
        return created;
    }

    /** Finds the servlet request a woven method runs in, for its HTTP keys ({@link RequestViews}). */
    public static RequestViews.Lookup requestLookup() {
        return ServletApi.LOOKUP;
    }

    /** Buffers waiting in the pool for virtual threads (tests). */
    int pooledScratch() {
        return scratchPool.size();
    }
}
