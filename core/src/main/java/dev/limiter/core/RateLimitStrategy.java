package dev.limiter.core;

/**
 * An admission algorithm: decides "allow or reject" for one key's {@link Bucket}.
 *
 * <p>This is also the service-provider interface for custom strategies: implement it, give it a public no-arg
 * constructor and list it in {@code META-INF/services/dev.limiter.core.RateLimitStrategy}; rules then refer to
 * it by {@link #name()}.
 *
 * <p>Contract for implementations (the request path runs here):
 * <ul>
 *   <li>thread-safe without locks: all mutable state lives in the bucket's pre-allocated slots, updated by CAS;</li>
 *   <li>no allocation, no logging, no exceptions on the normal path;</li>
 *   <li>time only from {@link LimitConfig#clock()}; a clock that steps backwards must not break the state.</li>
 * </ul>
 */
public interface RateLimitStrategy {

    /** The name rules use, e.g. {@code fixed-window}. Lower case, stable. */
    String name();

    /** A new bucket for one key, sized and initialised for this strategy (a token bucket starts full). */
    Bucket newBucket(LimitConfig config);

    /**
     * Takes one permit if the limit allows it.
     *
     * @param out filled per {@link Outcome}: remaining, reset (epoch seconds), retry-after millis (rejects), limit
     * @return true if the request is admitted
     */
    boolean check(Bucket bucket, LimitConfig config, long[] out);

    /**
     * Takes {@code permits} permits at once if they all fit, else none (a call that costs several permits, e.g. an
     * export that costs 50). Strategies that can ({@link #takesSeveral()}) fill {@code out} like {@link #check},
     * with the position of what they counted in {@link Outcome#STAMP} for a {@link #refund}. The default takes
     * one permit and refuses more: a custom strategy is asked for several only if it says it can.
     *
     * @throws UnsupportedOperationException for {@code permits > 1} on a strategy that does not take several
     */
    default boolean check(Bucket bucket, LimitConfig config, long permits, long[] out) {
        if (permits == 1) {
            return check(bucket, config, out);
        }
        throw new UnsupportedOperationException(name() + " takes one permit per call");
    }

    /**
     * Gives back {@code permits} taken by an admitted {@link #check(Bucket, LimitConfig, long, long[])} whose call
     * another limit then refused, so a rejected call uses no budget. {@code stamp} is the {@link Outcome#STAMP}
     * that check reported: permits of a window that has since ended are not given to the next one. Lock-free, no
     * allocation. A refund that finds the bucket reconfigured or retired in between does nothing (the permit
     * stays spent: never one more than the limit).
     *
     * @throws UnsupportedOperationException on a strategy that does not {@link #takesSeveral()}
     */
    default void refund(Bucket bucket, LimitConfig config, long permits, long stamp) {
        throw new UnsupportedOperationException(name() + " cannot give permits back");
    }

    /**
     * True if this strategy implements {@link #check(Bucket, LimitConfig, long, long[])} for several permits and
     * {@link #refund}: rules with a {@code cost} or several {@code limits} need both, and refuse a strategy
     * without them at validation.
     */
    default boolean takesSeveral() {
        return false;
    }

    /** What {@link #reserve} returns for a call it rejects (it took nothing). */
    long REJECTED = -1;

    /**
     * The longest {@link #reserve} wait the rules allow (one minute). A reservation state further ahead than this
     * can only come from a clock step back; strategies read it as this far ahead, so such a step costs at most
     * this long of rejections, while reservations made under a longer max-wait (before a reload) are never lost.
     */
    long MAX_WAIT_NANOS = 60_000_000_000L;

    /**
     * Takes {@code permits} now if they fit (returns 0), or from the future: the permits are reserved for the
     * exact time they accrue and the answer is how many nanoseconds the caller must wait for them, but only if
     * that wait is at most {@code maxWaitNanos}; otherwise nothing is taken and the call is rejected at once
     * ({@link #REJECTED}, with {@code out} filled like a rejecting {@link #check}). The wait is counted from the
     * clock reading the decision used and rounded up to the nanosecond, so a caller is never early. Reservations
     * are given back with {@link #refund} (e.g. a waiter that is interrupted). Lock-free, no allocation.
     *
     * @throws UnsupportedOperationException on a strategy that does not {@link #reserves()}
     */
    default long reserve(Bucket bucket, LimitConfig config, long permits, long maxWaitNanos, long[] out) {
        throw new UnsupportedOperationException(name() + " cannot reserve permits for later");
    }

    /**
     * True if this strategy implements {@link #reserve}: it must know exactly when permits accrue (a token
     * bucket, a GCRA meter). Rules with {@code on-limit: wait} refuse other strategies at validation.
     */
    default boolean reserves() {
        return false;
    }

    /**
     * Reads the budget without taking a permit (for JMX {@code remaining(key)} and headers). Fills {@code out}
     * like {@link #check} and returns the remaining permits.
     */
    long peek(Bucket bucket, LimitConfig config, long[] out);

    /**
     * What {@link #peek} reports for a key that has no bucket yet, without keeping one (a keyed store reading a key
     * it does not hold). The default peeks at a throwaway {@link #newBucket}; a strategy whose buckets are large
     * (the sliding log's ring) answers without allocating.
     */
    default long peekFresh(LimitConfig config, long[] out) {
        return peek(newBucket(config), config, out);
    }

    /**
     * Gives a permit back when the guarded work ends. Only strategies that count work in flight
     * ({@link #releasesOnExit()}) do anything here; it is called exactly once per admitted {@link #check}.
     */
    default void release(Bucket bucket, LimitConfig config) {
    }

    /**
     * True if the release should carry the call's latency ({@link #release(Bucket, LimitConfig, long, long)}): a
     * limit that learns from it ({@code adaptive}). Callers that can measure it then do; the others need not.
     */
    default boolean samplesLatency() {
        return false;
    }

    /**
     * {@link #release} with how long the admitted call held its permit ({@code heldNanos}) and the
     * {@link System#nanoTime} of its end; the default ignores both.
     */
    default void release(Bucket bucket, LimitConfig config, long heldNanos, long nowNanos) {
        release(bucket, config);
    }

    /** True if admitted calls must be followed by {@link #release} (a bulkhead / concurrency limit). */
    default boolean releasesOnExit() {
        return false;
    }

    /**
     * True if this strategy reads {@link LimitConfig#capacity()} (a burst size apart from the limit, as a bucket
     * has); the rules refuse {@code capacity:} on a rule whose strategy ignores it, so a setting never silently
     * does nothing. Custom strategies keep the default and may be given a capacity.
     */
    default boolean usesCapacity() {
        return true;
    }

    /** True if the bucket holds no information worth keeping (full budget, nothing in flight): it may be evicted. */
    boolean isIdle(Bucket bucket, LimitConfig config);

    /**
     * Checks that this strategy can run with {@code config}, beyond the ranges {@link LimitConfig} itself checks
     * (e.g. the sliding window packs its counts in 21 bits). Called when a rule is compiled or reconfigured,
     * never on the request path.
     *
     * @throws IllegalArgumentException naming the value that does not fit
     */
    default void validate(LimitConfig config) {
    }

    /**
     * Atomically makes an idle bucket unusable so a keyed store can drop it without losing a permit taken
     * concurrently; returns false (and changes nothing) if the bucket is not idle. Strategies whose state may be
     * lost harmlessly keep the default, which only checks {@link #isIdle}; a bulkhead must override it, because
     * a permit taken on a dropped bucket could never be released.
     */
    default boolean retire(Bucket bucket, LimitConfig config) {
        return isIdle(bucket, config);
    }

    /**
     * True if {@link #retire} succeeded on this bucket: {@link #check} then rejects and the caller must look the
     * key up again (a new bucket replaces the retired one).
     */
    default boolean isRetired(Bucket bucket) {
        return false;
    }
}
