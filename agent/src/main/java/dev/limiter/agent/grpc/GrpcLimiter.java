package dev.limiter.agent.grpc;

import dev.limiter.agent.decision.CallGate;
import dev.limiter.agent.decision.Decider;
import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.agent.http.FirstRequest;
import dev.limiter.agent.http.PermitRelease;
import dev.limiter.bootstrap.GrpcBridge;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.bootstrap.ReactiveDelegate;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * The gRPC adapter of the decision, called from the woven {@code startCall} of grpc-java's stub handlers through
 * {@link GrpcBridge}, once per call (unary and streaming alike), before the service method runs: match the
 * current {@code grpc:} rules on the full service name and the method name, run the {@link Decider}, and either
 * let the call start (concurrency permits handed to a {@link PermitRelease} that the listener returned to
 * grpc-java runs when the call ends, cancel included) or close the call with {@code RESOURCE_EXHAUSTED} and its
 * {@code retry-after} trailer and return a listener that ignores the rest of the call.
 *
 * <p>Never blocks and never throws into grpc-java: rules come from the holder (a volatile read), strategies run on
 * the local store without locks, and failures are counted, logged (throttled) and leave the call alone.
 */
public final class GrpcLimiter extends CallGate<GrpcCallScratch> implements ReactiveDelegate {


    private final GrpcNameHints hints = new GrpcNameHints();

    public GrpcLimiter(RuleSetHolder holder, ThrottledLog log) {
        super(holder, log);
    }

    @Override
    protected GrpcCallScratch newBuffers() {
        return new GrpcCallScratch();
    }

    /** Puts a gRPC limiter over {@code holder} into the bridge: calls are checked from now on. */
    public static void install(RuleSetHolder holder, ThrottledLog log) {
        GrpcBridge.install(new GrpcLimiter(holder, log));
    }

    @Override
    public Object onExchangeStart(Object call, Object headers) {
        FirstRequest.seen();
        RuleSet rules = holder.current();
        if (rules.maxGrpcMatches() == 0 || call == null) {
            return null; // no gRPC rule: do not touch the call at all
        }
        GrpcApi api = GrpcApi.of(call);
        if (!api.supported) {
            log.warn(Warning.UNSUPPORTED, "limiter: this grpc-java is not supported; calls run unlimited", api.problem);
            return null;
        }
        GrpcCallScratch scratch = buffers();
        int count;
        try {
            count = scratch.match(rules, api, api.descriptor(call), hints);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            log.warn(Warning.DECISION, "limiter: could not match the gRPC call; it is allowed", t);
            return null;
        }
        if (count == 0) {
            return null;
        }
        try {
            scratch.begin(rules, api, call, headers);
            Rule rejecting = decider.decide(scratch.matched(), count, scratch);
            if (rejecting != null) {
                return reject(api, call, rules, rejecting, scratch);
            }
            if (scratch.permits.height() > 0) {
                GrpcBridge.hold(new PermitRelease(scratch.permits, api));
            }
            return null;
        } finally {
            scratch.end();
        }
    }

    /**
     * Closes the call with {@code RESOURCE_EXHAUSTED}, the trailers the rules file's {@code response:} gives an
     * HTTP rejection ({@code retry-after} always, rate-limit entries by its header style), and returns the no-op
     * listener; null (the call runs) if the call cannot be closed, as a servlet whose rejection failed runs.
     */
    private Object reject(GrpcApi api, Object call, RuleSet rules, Rule rule, GrpcCallScratch scratch) {
        try {
            Object trailers = api.newMetadata();
            scratch.trailers.write(api, trailers, rules.response(), scratch.rejectText, scratch.out, true,
                    System.currentTimeMillis());
            Object listener = api.listeners().rejected;
            api.closeExhausted(call, "rate limit exceeded (rule " + rule.id() + "); retry after "
                    + Outcome.retryAfterSeconds(scratch.out) + " s", trailers);
            return listener;
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            log.warn(Warning.RENDERING, "limiter: could not reject a gRPC call for rule " + rule.id() + "; it runs", t);
            return null;
        }
    }

    @Override
    public Object onExchangeReturn(Object listener, Object token) {
        PermitRelease release = (PermitRelease) token;
        if (listener == null) { // grpc-java throws on a null listener: the call is over as far as we can tell
            release.run();
            return null;
        }
        try {
            return ((GrpcApi) release.binding).listeners().releasing(listener, release);
        } catch (Throwable t) {
            release.run();
            LimiterBridge.countInternalError();
            log.warn(Warning.RELEASE,
                    "limiter: could not wait for the end of a gRPC call; its permits are released now", t);
            return listener;
        }
    }

    @Override
    public void onExchangeFailed(Object token) {
        ((PermitRelease) token).run();
    }
}
