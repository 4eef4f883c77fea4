package dev.limiter.agent.decision;

import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.condition.RequestFacts;
import dev.limiter.rules.Tier;
import dev.limiter.rules.response.HeaderText;

/**
 * What {@link Decider} needs of one entry point's call, and what it leaves there: the key of each matched rule,
 * the outcome of the deciding check, the binding outcome for the rate-limit headers, and the permits held until
 * the call ends.
 *
 * <p>Each adapter (servlet request, woven method) keeps one subclass instance per thread and reuses it, so a
 * decision allocates nothing: {@link #key} reads what the adapter set on the instance before the decision.
 */
public abstract class Call implements RequestFacts {


    /** The outcome of the last check: on a rejection, the rejecting rule's ({@link dev.limiter.core.Outcome}). */
    public final long[] out = Outcome.newArray();
    /** The outcome of {@link #bindingRule}: the enforced rule with the least remaining among those admitted. */
    public final long[] binding = Outcome.newArray();
    /** The rule the headers report, or null if no enforced rule admitted the call. */
    public Rule bindingRule;
    /** Permits to give back when the call ends. */
    public final HeldPermits permits = new HeldPermits();
    /** The header values of the binding limit of {@link #bindingRule}. */
    public HeaderText bindingText;
    /** The header values of the limit that rejected the call (valid when the decision rejected it). */
    public HeaderText rejectText;
    /** A limit's outcome while several are decided ({@link dev.limiter.core.store.AllOf}). */
    final long[] scratch = Outcome.newArray();
    /** Where each of several limits counted its permits, for refunds. */
    final long[] stamps = new long[Tier.MAX_LIMITS];

    /** The request's header {@code name} for a condition; none by default (a call without a request). */
    @Override
    public String header(String name) throws Throwable {
        return null;
    }

    /** The client's address for a condition; unknown by default (a call without a request). */
    @Override
    public String clientAddress() throws Throwable {
        return null;
    }

    /** Whether the user has {@code role}, for a condition; no by default (a call without a request). */
    @Override
    public boolean isUserInRole(String role) throws Throwable {
        return false;
    }

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
