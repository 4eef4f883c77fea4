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

    /** Returns the permit of an admitted call, for strategies that {@link RateLimitStrategy#releasesOnExit()}. */
    void release(String key);

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
