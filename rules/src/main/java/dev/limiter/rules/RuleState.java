package dev.limiter.rules;

import dev.limiter.core.KeyedLimiter;

/**
 * The part of a rule that lives across reloads: the keyed limiter (counters, tokens, keys), the stats, and the
 * mode set at run time over JMX.
 *
 * <p>Separate from {@link Rule} because a {@code Rule} is part of an immutable snapshot and is rebuilt on every
 * reload, while this state must survive it when the rule's id and strategy do. The mode override is volatile:
 * a JMX thread writes it, request threads read it.
 */
public final class RuleState {

    final KeyedLimiter limiter;
    final RuleStats stats;
    final String strategyName;
    final int maxKeys;
    final StoreSpec store;
    private volatile Mode modeOverride;

    public RuleState(KeyedLimiter limiter, RuleStats stats, String strategyName, int maxKeys, StoreSpec store) {
        this.limiter = limiter;
        this.store = store;
        this.stats = stats;
        this.strategyName = strategyName;
        this.maxKeys = maxKeys;
    }

    public Mode modeOverride() {
        return modeOverride;
    }

    public void modeOverride(Mode mode) {
        this.modeOverride = mode;
    }
}
