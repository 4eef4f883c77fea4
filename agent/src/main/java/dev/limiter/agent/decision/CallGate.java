package dev.limiter.agent.decision;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.rules.reload.RuleSetHolder;

/**
 * What every gate that decides calls on the calling thread holds: the rules in force, the agent's error log, the
 * {@link Decider}, and per thread the buffers a call is decided in (made at the thread's first call, reused by
 * every call after it, so the allowed path allocates nothing).
 *
 * @param <C> the per-thread buffers
 */
public abstract class CallGate<C> {

    protected final RuleSetHolder holder;
    protected final ThrottledLog log;
    protected final Decider decider;

    /** Anonymous class, not a lambda: nothing to spin on the first call. */
    private final ThreadLocal<C> buffers = new ThreadLocal<>() {
        @Override
        protected C initialValue() {
            return newBuffers();
        }
    };

    protected CallGate(RuleSetHolder holder, ThrottledLog log) {
        this.holder = holder;
        this.log = log;
        this.decider = new Decider(log);
    }

    /** The calling thread's buffers. */
    protected final C buffers() {
        return buffers.get();
    }

    /** A thread's buffers, made at its first call. */
    protected abstract C newBuffers();
}
