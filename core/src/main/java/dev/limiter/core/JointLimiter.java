package dev.limiter.core;

import dev.limiter.core.store.AllOf;

/**
 * A keyed limiter whose store can decide several of its limiters for one key in one step: a shared store runs
 * them as one atomic operation (one round trip), where {@link AllOf} would take and refund limit by limit.
 * {@link AllOf} asks the first limiter of a rule's limits for this before anything else.
 */
public interface JointLimiter extends KeyedLimiter {

    /** {@link #tryAcquireAll}'s answer when these limiters cannot be decided together: ask them one by one. */
    int NOT_JOINED = Integer.MIN_VALUE;

    /**
     * Takes {@code permits} for {@code key} from every one of {@code limiters} (this one among them), or from none,
     * atomically; fills {@code out} with the binding limit's outcome.
     *
     * @return {@link AllOf}'s answer (the binding index, or its complement on a rejection), or
     *         {@link #NOT_JOINED}
     */
    int tryAcquireAll(KeyedLimiter[] limiters, String key, long permits, long[] out);
}
