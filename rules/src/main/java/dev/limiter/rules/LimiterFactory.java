package dev.limiter.rules;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.strategy.Strategies;

/**
 * Gives a compiled rule its limiter: the seam through which the agent puts rules in Redis without the rules
 * module knowing Redis.
 *
 * <p>The compiler calls {@link #create} only after the whole file validated, once per rule that does not keep
 * its previous limiter (new id, changed strategy, max-keys or store). {@link #LOCAL} is what the validator,
 * tests and a JVM without a Redis wiring use: every rule gets an in-JVM limiter, whatever its store says.
 */
public interface LimiterFactory {

    /** In-JVM limiters for every rule. */
    LimiterFactory LOCAL = new LocalLimiterFactory();

    /**
     * A new limiter for a rule.
     *
     * @param ruleId   the rule's id (part of the Redis key, so JVMs with the same rule share state)
     * @param store    where the state should live ({@link StoreSpec#LOCAL} or a Redis spec)
     * @param strategy the resolved strategy
     * @param config   the rule's limits
     * @param maxKeys  the bound of locally held keys
     * @param onFull   what a new key gets when every locally held key has live state (a store that does not
     *                 hold keys locally, as Redis with its expiring keys, ignores it)
     * @return the limiter; never null
     */
    KeyedLimiter create(String ruleId, StoreSpec store, RateLimitStrategy strategy, LimitConfig config,
            int maxKeys, OnFull onFull);

    /**
     * True if a rule of {@code strategy} can keep its state in {@code store}; the compiler reports a rule that
     * cannot. In-JVM state runs every strategy; a shared store runs only what it implements itself, and by
     * default that is the built-ins, since a custom strategy is Java code that runs in one JVM only, but not
     * {@code adaptive}, whose limit is learned from one JVM's latencies.
     */
    default boolean supports(StoreSpec store, RateLimitStrategy strategy) {
        return !store.isRedis() || Strategies.isBuiltIn(strategy) && !strategy.samplesLatency();
    }
}
