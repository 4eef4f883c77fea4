package dev.limiter.agent.store;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.StoreSpec;
import dev.limiter.rules.reload.ReloadListener;
import java.util.HashSet;
import java.util.Set;

/**
 * After every successful load, tells the factory which stores the rules in force use, so a store section that
 * changed (or went away) closes its old connection. A failed reload changes nothing: the rules in force, and
 * therefore their stores, stay.
 */
public final class StoreRetention implements ReloadListener {

    private final RedisLimiterFactory factory;

    public StoreRetention(RedisLimiterFactory factory) {
        this.factory = factory;
    }

    @Override
    public void reloaded(RuleSet previous, RuleSet current) {
        retain(current);
    }

    @Override
    public void reloadFailed(RulesException error, RuleSet current) {
        // the rules in force did not change
    }

    public void retain(RuleSet current) {
        Set<StoreSpec> inUse = new HashSet<>();
        for (Rule rule : current.rules()) {
            if (rule.store().isRedis()) {
                inUse.add(rule.store());
            }
        }
        factory.retain(inUse);
    }
}
