package dev.limiter.core;

/**
 * The seam between "a rule and a key" and "a decision": one rule's limiter over all of its keys.
 *
 * <p>The local implementation keeps buckets in this JVM ({@code LocalKeyedLimiter}); a distributed one (Redis)
 * implements the same interface, so the agent never knows where the state lives.
 *
 * <p>{@link #tryAcquire} and {@link #release} are request-path methods: lock-free and, for keys that already
 * exist, allocation-free.
 */
public interface KeyedLimiter {

    /** Takes one permit for {@code key}; fills {@code out} per {@link Outcome}. */
    boolean tryAcquire(String key, long[] out);

    /**
     * Takes {@code permits} for {@code key} at once, or none (a call's cost); fills {@code out} per {@link Outcome},
     * with {@link Outcome#STAMP} for a {@link #refund}. Only for strategies that
     * {@link RateLimitStrategy#takesSeveral() take several}; the default takes one.
     *
     * @throws UnsupportedOperationException for {@code permits > 1} where the store or strategy cannot
     */
    default boolean tryAcquire(String key, long permits, long[] out) {
        if (permits == 1) {
            return tryAcquire(key, out);
        }
        throw new UnsupportedOperationException("this limiter takes one permit per call");
    }

    /**
     * Gives back {@code permits} an admitted {@link #tryAcquire(String, long, long[])} took for {@code key} (its
     * {@link Outcome#STAMP} in {@code stamp}), because another limit of the same call refused it: a rejected call
     * uses no budget. See {@link RateLimitStrategy#refund}.
     *
     * @throws UnsupportedOperationException where the store or strategy cannot
     */
    default void refund(String key, long permits, long stamp) {
        throw new UnsupportedOperationException("this limiter cannot give permits back");
    }

    /**
     * Takes {@code permits} for {@code key} now or reserves them for the time they accrue, if that is at most
     * {@code maxWaitNanos} away; returns the nanoseconds to wait (0: now), or {@link RateLimitStrategy#REJECTED}
     * having taken nothing. A reservation is given back with {@link #refund} (stamp 0). See
     * {@link RateLimitStrategy#reserve}.
     *
     * @throws UnsupportedOperationException where the store or strategy cannot
     */
    default long reserve(String key, long permits, long maxWaitNanos, long[] out) {
        throw new UnsupportedOperationException("this limiter cannot reserve permits for later");
    }

    /** Returns the permit of an admitted call, for strategies that {@link RateLimitStrategy#releasesOnExit()}. */
    void release(String key);

    /** True if {@link #release(String, long, long)} wants the call's latency ({@code adaptive}). */
    default boolean samplesLatency() {
        return strategy().samplesLatency();
    }

    /**
     * {@link #release(String)} with how long the call held its permit and the {@link System#nanoTime} of its end,
     * for a strategy that {@link #samplesLatency()}; the default drops both.
     */
    default void release(String key, long heldNanos, long nowNanos) {
        release(key);
    }

    /**
     * The state of {@code key} in this JVM, for reading only (e.g. an adaptive limit's current value), or null if
     * the key has none here or the store keeps it elsewhere.
     */
    default Bucket stateOf(String key) {
        return null;
    }

    /** Reads the budget of {@code key} without taking a permit; fills {@code out}; returns remaining. */
    long remaining(String key, long[] out);

    /** Number of keys with live state. */
    int activeKeys();

    /**
     * Forgets the state of every key: all start with a full budget. Calls in flight on a bulkhead are not
     * forgotten (see {@link #resetKey}).
     */
    void reset();

    /**
     * Forgets the state of one key. For a strategy that {@link RateLimitStrategy#releasesOnExit() releases on
     * exit}, calls still in flight keep their permits until they release them: a reset cannot stop running
     * work, and forgetting it would let more than the limit run at once.
     */
    void resetKey(String key);

    /** The limits now in force. */
    LimitConfig config();

    /** The algorithm. */
    RateLimitStrategy strategy();

    /**
     * Applies new limits to the existing keys from their next check (live reload). The strategy must be the
     * same; a rule whose strategy changes gets a new limiter instead.
     */
    void reconfigure(LimitConfig config);

    /**
     * Applies a new {@link OnFull} choice from the next new key on (live reload). Stores that do not bound their
     * keys in this JVM (Redis expires keys by TTL) ignore it.
     */
    default void onFull(OnFull onFull) {
    }

    /** Requests of new keys refused because every slot held live state ({@link OnFull#REJECT}, bulkheads). */
    default long keysRefused() {
        return 0;
    }

    /** Requests of new keys admitted without state because every slot held live state ({@link OnFull#ALLOW}). */
    default long keysAdmittedWithoutState() {
        return 0;
    }
}
