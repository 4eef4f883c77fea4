package dev.limiter.agent.decision;

import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;

/**
 * What {@link Decider} needs of one entry point's call, and what it leaves there: the key of each matched rule,
 * the outcome of the deciding check, the binding outcome for the rate-limit headers, and the permits held until
 * the call ends.
 *
 * <p>Each adapter (servlet request, woven method) keeps one subclass instance per thread and reuses it, so a
 * decision allocates nothing: {@link #key} reads what the adapter set on the instance before the decision.
 */
public abstract class Call {

    /** The outcome of the last check: on a rejection, the rejecting rule's ({@link dev.limiter.core.Outcome}). */
    public final long[] out = Outcome.newArray();
    /** The outcome of {@link #bindingRule}: the enforced rule with the least remaining among those admitted. */
    public final long[] binding = Outcome.newArray();
    /** The rule the headers report, or null if no enforced rule admitted the call. */
    public Rule bindingRule;
    /** Permits to give back when the call ends. */
    public final HeldPermits permits = new HeldPermits();

    /**
     * The key of {@code rule}, the {@code index}-th of the decision, for this call; null if it cannot be had here
     * (then the rule fails and its {@code on-error} decides).
     */
    protected abstract String key(Rule rule, int index) throws Throwable;

    /** Why {@link #key} gave null, for the log (failure path only). */
    protected abstract String missingKey(Rule rule, int index);

    /** Where the call is, for the log (failure path only): empty, or {@code " at <site>"}. */
    protected abstract String where();

    /** What is admitted or rejected, for the log: {@code request} or {@code call}. */
    protected abstract String noun();
}
