package dev.limiter.redis;

/**
 * Told of each failed round trip to Redis, on the thread that saw it fail (a request thread): the agent turns it
 * into a JDK Flight Recorder event. Installed with {@link RedisStoreStats#failureListener}; must be cheap and
 * must not block. This module knows nothing of JFR or of the agent.
 */
@FunctionalInterface
public interface StoreFailureListener {

    /**
     * @param store   {@code redis} or {@code redis-cluster}
     * @param timeout true if the round trip timed out, false for any other error
     * @param message the exception and its innermost message (never a password)
     */
    void failed(String store, boolean timeout, String message);
}
