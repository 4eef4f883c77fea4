package dev.limiter.agent.store;

import dev.limiter.agent.jmx.StoreJmx;
import dev.limiter.core.clock.SystemClock;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Path;
import java.util.logging.Logger;

/**
 * Opens the rules with the Redis-capable {@link RedisLimiterFactory}: the one place the agent wires the store.
 *
 * <p>Nothing of Redis is loaded unless the file has a {@code store: redis} rule: the factory connects on the
 * first such rule (at most one {@code timeout} at start-up if Redis does not answer: the store then starts in
 * fallback and connects by itself later). The store MBean is registered by {@link StoreJmx}'s delayed daemon
 * thread, never from premain.
 *
 * <p>Rules read time from {@link SystemClock}, not the core's default {@code CoarseClock}: a coarse clock's timer
 * thread wakes 1,000 times a second while there is traffic, about 2.3 % of a core, which at the request rates
 * of one JVM is far more than a {@code currentTimeMillis()} per check (~30 ns), and it can lag by tens of
 * milliseconds on a busy machine (docs/strategies.md, "Time").
 */
public final class StoreWiring {

    private StoreWiring() {
    }

    /** {@link RuleSetHolder#open} with Redis-backed limiters for {@code store: redis} rules. */
    public static RuleSetHolder open(Path rules, Logger log) {
        RedisLimiterFactory factory = new RedisLimiterFactory(log);
        RuleSetHolder holder = RuleSetHolder.open(rules, SystemClock.INSTANCE, factory);
        StoreRetention retention = new StoreRetention(factory);
        retention.retain(holder.current());
        holder.addListener(retention);
        StoreJmx.start(factory, log);
        return holder;
    }
}
