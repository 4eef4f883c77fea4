package dev.limiter.agent.decision;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.condition.RequestFacts;
import dev.limiter.rules.Tier;
import dev.limiter.rules.response.HeaderText;
import java.util.Arrays;

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

    /**
     * Nanoseconds the call must wait for permits reserved by {@code on-limit: wait} rules before it runs (0: none);
     * set by an admitting decision.
     */
    public long waitNanos;
    /** The rule of the longest wait: an interrupted wait is rejected in its name. */
    public Rule waitRule;
    /** The rule of the longest {@code Retry-After} pause {@link Decider#pauseLeft} found, and its key; else null. */
    public Rule pausedRule;
    public String pausedKey;
    /**
     * The reservations of the decision, for a refund if the wait is interrupted (grown, rarely, per thread). Each
     * holds one of its rule's waiter slots ({@link RuleStats#enterWaiting}) until it is cleared.
     */
    private KeyedLimiter[] reservedBy = new KeyedLimiter[2];
    private String[] reservedKeys = new String[2];
    private long[] reservedPermits = new long[2];
    private long[] reservedStamps = new long[2];
    private RuleStats[] reservedStats = new RuleStats[2];
    private int reservations;

    /**
     * Ends the decision's wait: forgets its reservations (kept, its keys too, only until then) and gives their
     * rules' waiter slots back.
     */
    public final void clearReservations() {
        waitNanos = 0;
        waitRule = null;
        for (int i = 0; i < reservations; i++) {
            reservedStats[i].leaveWaiting();
            reservedStats[i] = null;
            reservedBy[i] = null;
            reservedKeys[i] = null;
        }
        reservations = 0;
    }

    /**
     * Records a reservation of {@code permits} for {@code key} ({@code stamp}: where it counted, for a refund),
     * waiting {@code nanos}, made by {@code rule}, which holds one of the rule's waiter slots.
     */
    final void reserved(KeyedLimiter limiter, String key, long permits, long stamp, long nanos, Rule rule) {
        if (reservations == reservedBy.length) {
            reservedBy = Arrays.copyOf(reservedBy, reservations * 2);
            reservedKeys = Arrays.copyOf(reservedKeys, reservations * 2);
            reservedPermits = Arrays.copyOf(reservedPermits, reservations * 2);
            reservedStamps = Arrays.copyOf(reservedStamps, reservations * 2);
            reservedStats = Arrays.copyOf(reservedStats, reservations * 2);
        }
        reservedBy[reservations] = limiter;
        reservedKeys[reservations] = key;
        reservedPermits[reservations] = permits;
        reservedStamps[reservations] = stamp;
        reservedStats[reservations] = rule.stats();
        reservations++;
        if (nanos > waitNanos) {
            waitNanos = nanos;
            waitRule = rule;
        }
    }

    /**
     * Moves the decision's reservations (and their waiter slots) into a {@link Reservations} of their own, for a
     * call delayed without a thread; this call is left with none. Allocates: only a waiting call comes here.
     */
    public final Reservations detachReservations() {
        Reservations detached = new Reservations(reservedBy, reservedKeys, reservedPermits, reservedStamps,
                reservedStats, reservations);
        for (int i = 0; i < reservations; i++) {
            reservedStats[i] = null;
            reservedBy[i] = null;
            reservedKeys[i] = null;
        }
        reservations = 0;
        waitNanos = 0;
        waitRule = null;
        return detached;
    }

    /**
     * Gives back every permit the decision reserved (an interrupted wait, or a later rule's rejection): the next
     * callers get those times, as if this call had never asked.
     */
    public final void refundReservations() {
        for (int i = 0; i < reservations; i++) {
            reservedBy[i].refund(reservedKeys[i], reservedPermits[i], reservedStamps[i]);
        }
        clearReservations();
    }

    /**
     * True if the adapter parks the thread for {@link #waitNanos} after an admitting decision (servlet requests,
     * woven methods). An adapter that does not (WebFlux, which must not block its thread) keeps the default: its
     * calls never wait, a rule that waits takes a free permit or rejects at once.
     */
    protected boolean parksAfterDecision() {
        return false;
    }

    /**
     * True if the adapter delays the call for {@link #waitNanos} without holding a thread (an asynchronous client
     * call, sent later by a scheduler): its rules may wait whatever thread decides it.
     */
    protected boolean delaysWithoutThread() {
        return false;
    }

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
     * The cost of a call read from its argument ({@code cost: arg:N}), from 1 to {@code LimitConfig.MAX_LIMIT}.
     * Only woven methods have arguments; the rules refuse {@code arg:N} elsewhere, so reaching this is a failure.
     */
    protected long argumentCost() {
        throw new IllegalStateException("a cost read from an argument needs a woven method");
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
