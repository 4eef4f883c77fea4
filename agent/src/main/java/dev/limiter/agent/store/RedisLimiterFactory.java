package dev.limiter.agent.store;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.store.LocalKeyedLimiter;
import dev.limiter.redis.OnFailure;
import dev.limiter.redis.RedisSettings;
import dev.limiter.redis.RedisStore;
import dev.limiter.redis.StoreState;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.StoreSpec;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.logging.Level;
import java.util.logging.Logger;

/**
 * The agent's {@link LimiterFactory}: rules whose store is Redis get a limiter of a {@link RedisStore}, every
 * other rule an in-JVM one.
 *
 * <p>One connection (pool, circuit, statistics) per distinct {@link StoreSpec}: a reload that keeps the
 * {@code store:} section asks for the same spec and gets the same store; a reload that changes it connects
 * anew, and {@link #retain} closes the stores the rules in force no longer use. Runs on the loading thread
 * (premain, the watcher, a JMX reload), never on the request path; synchronized because reloads may come from
 * two threads. A store that cannot serve a rule (limits beyond what the script computes exactly, settings the
 * client refuses) leaves that rule local, with a warning: throwing here would stop a reload half-way, after
 * earlier rules were already reconfigured.
 */
public final class RedisLimiterFactory implements LimiterFactory {

    private final Logger log;
    private final Map<StoreSpec, RedisStore> stores = new LinkedHashMap<>();
    private volatile StoreSpec activeSpec = StoreSpec.LOCAL;
    private volatile RedisStore active;

    public RedisLimiterFactory(Logger log) {
        this.log = log;
    }

    @Override
    public synchronized KeyedLimiter create(String ruleId, StoreSpec store, RateLimitStrategy strategy,
            LimitConfig config, int maxKeys, OnFull onFull) {
        if (!store.isRedis()) {
            return LocalKeyedLimiter.create(strategy, config, maxKeys, onFull);
        }
        try {
            RedisStore redis = stores.get(store);
            if (redis == null) {
                redis = RedisStore.connect(settings(store));
                stores.put(store, redis);
                if (redis.state() == StoreState.UP) {
                    log.info("limiter: store " + redact(store) + " up");
                } else {
                    // e.g. a wrong password: say why, once; the store keeps probing and recovers by itself
                    log.warning("limiter: store " + redact(store) + " " + redis.state().name().toLowerCase()
                            + " (on-failure " + store.onFailure() + " applies until it answers): "
                            + redis.stats().getLastError());
                }
            }
            KeyedLimiter limiter = redis.limiter(ruleId, strategy.name(), config, maxKeys);
            limiter.onFull(onFull); // its local fallback's choice: keys in Redis expire by themselves
            return limiter;
        } catch (IllegalArgumentException e) {
            // the validator checked the section; this is a limit the script cannot compute exactly, or a setting
            // the client refuses: never half a reload, so this rule runs locally and says why
            log.warning("limiter: rule '" + ruleId + "' stays local: " + e.getMessage());
            return LocalKeyedLimiter.create(strategy, config, maxKeys, onFull);
        }
    }

    /** Redis runs the strategies it has a script for; every strategy runs in-JVM. */
    @Override
    public boolean supports(StoreSpec store, RateLimitStrategy strategy) {
        return !store.isRedis() || RedisStore.runs(strategy);
    }

    /**
     * Keeps the stores of {@code inUse} (the specs of the rules in force) and closes every other one: called after
     * each successful load. Limiters of a closed store apply their on-failure until the last request that still
     * holds the previous rules is done.
     */
    public synchronized void retain(Collection<StoreSpec> inUse) {
        Set<StoreSpec> keep = new HashSet<>(inUse);
        RedisStore nowActive = null;
        StoreSpec nowSpec = StoreSpec.LOCAL;
        for (Iterator<Map.Entry<StoreSpec, RedisStore>> it = stores.entrySet().iterator(); it.hasNext();) {
            Map.Entry<StoreSpec, RedisStore> entry = it.next();
            if (keep.contains(entry.getKey())) {
                nowActive = entry.getValue();
                nowSpec = entry.getKey();
            } else {
                close(entry.getKey(), entry.getValue());
                it.remove();
            }
        }
        active = nowActive;
        activeSpec = nowSpec;
    }

    /** The Redis store the rules in force use, or null when every rule is local. */
    public RedisStore active() {
        return active;
    }

    /** The spec of {@link #active()}; {@link StoreSpec#LOCAL} when every rule is local. */
    public StoreSpec activeSpec() {
        return activeSpec;
    }

    /** Open stores (tests). */
    synchronized List<RedisStore> open() {
        return new ArrayList<>(stores.values());
    }

    /** Closes every store (shutdown, tests). */
    public synchronized void closeAll() {
        for (Map.Entry<StoreSpec, RedisStore> entry : stores.entrySet()) {
            close(entry.getKey(), entry.getValue());
        }
        stores.clear();
        active = null;
        activeSpec = StoreSpec.LOCAL;
    }

    private void close(StoreSpec spec, RedisStore store) {
        try {
            store.close();
            log.info("limiter: store " + redact(spec) + " closed (no rule in force uses it)");
        } catch (RuntimeException e) {
            log.log(Level.WARNING, "limiter: closing store " + redact(spec) + " failed", e);
        }
    }

    static RedisSettings settings(StoreSpec spec) {
        return RedisSettings.parse(spec.uriList())
                .withTimeout(Duration.ofMillis(spec.timeoutMillis()))
                .withOnFailure(OnFailure.byName(spec.onFailure()))
                .withKeyPrefix(spec.keyPrefix())
                .withBatch(spec.batch());
    }

    /** The store's URIs with passwords replaced by {@code ***}: for logs and JMX. */
    public static String redact(StoreSpec spec) {
        StringBuilder text = new StringBuilder();
        for (String uri : spec.uris()) {
            if (text.length() > 0) {
                text.append(',');
            }
            int start = uri.indexOf("://") + 3;
            int at = uri.indexOf('@', start);
            int colon = uri.indexOf(':', start);
            if (at > 0 && colon > 0 && colon < at) {
                text.append(uri, 0, colon + 1).append("***").append(uri.substring(at));
            } else if (at > 0) {
                text.append(uri, 0, start).append("***").append(uri.substring(at));
            } else {
                text.append(uri);
            }
        }
        return text.toString();
    }
}
