package dev.limiter.agent.outbound;

import dev.limiter.agent.diagnostics.Warning;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.rules.RuleSet;

/**
 * The outer path every HTTP client's adapter shares: without an {@code http-client} rule in force the call is not
 * looked at; otherwise the client's own step ({@link #decide}) reads the call into this thread's
 * {@link OutboundCall}, has the {@link OutboundGate} decide it and answers the woven method. A failure of the
 * agent's own is counted and logged (throttled), and the call is sent unchecked; the thread's call buffers never
 * keep the request.
 */
public abstract class ClientAdapter implements OutboundClients.Adapter {

    protected final OutboundGate gate;
    /** The client's name, for the log. */
    private final String client;

    protected ClientAdapter(OutboundGate gate, String client) {
        this.gate = gate;
        this.client = client;
    }

    @Override
    public final Object onCallStart(Object target, Object first, Object second, Object third, boolean async) {
        RuleSet rules = gate.clientRules();
        if (rules == null) {
            return null;
        }
        OutboundCall call = gate.call();
        try {
            return decide(rules, call, target, first, second, third, async);
        } catch (Throwable t) {
            LimiterBridge.countInternalError();
            gate.log().warn(Warning.DECISION,
                    "limiter: could not decide a call of " + client + "; it is sent unchecked", t);
            return null;
        } finally {
            call.end();
        }
    }

    /**
     * Begins {@code call} ({@link OutboundCall#begin}) for the woven method's receiver {@code target} and its
     * arguments, decides it ({@link OutboundGate#decide}) and returns what the woven method is told: null to send the
     * call untouched, a rejection to throw, or what it returns instead ({@link OutboundClients}).
     */
    protected abstract Object decide(RuleSet rules, OutboundCall call, Object target, Object first, Object second,
            Object third, boolean async) throws Throwable;

    /** True if {@code api} serves; else says once that this client's calls run unchecked. */
    protected final boolean usable(BoundClientApi api) {
        return usable(api.problem);
    }

    /** True if a binding whose problem is {@code problem} serves; else says so once. */
    protected final boolean usable(BindingProblem problem) {
        return problem.usable(gate.log(), client);
    }
}
