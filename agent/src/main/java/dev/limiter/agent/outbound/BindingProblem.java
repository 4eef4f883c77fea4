package dev.limiter.agent.outbound;

import dev.limiter.agent.diagnostics.ThrottledLog;
import dev.limiter.agent.diagnostics.Warning;

/**
 * Why a client library's binding cannot serve (this version lacks a method it needs), or nothing; said once, as its
 * calls then run unchecked.
 */
public final class BindingProblem {

    private final Throwable problem;
    private volatile boolean said;

    public BindingProblem(Throwable problem) {
        this.problem = problem;
    }

    /** True if the binding serves; else says once, naming {@code client}, that its calls run unchecked. */
    public boolean usable(ThrottledLog log, String client) {
        if (problem == null) {
            return true;
        }
        if (!said) {
            said = true;
            log.warn(Warning.UNSUPPORTED,
                    "limiter: this " + client + " is not supported; its calls run unlimited", problem);
        }
        return false;
    }
}
