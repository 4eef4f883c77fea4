package dev.limiter.rules;

import dev.limiter.core.KeyPauses;
import dev.limiter.core.KeyedLimiter;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The part of a rule that lives across reloads: the keyed limiter (counters, tokens, keys), the stats, and the
 * mode set at run time over JMX.
 *
 * <p>Separate from {@link Rule} because a {@code Rule} is part of an immutable snapshot and is rebuilt on every
 * reload, while this state must survive it when the rule's id and strategy do. The mode override is volatile:
 * a JMX thread writes it, request threads read it.
 */
public final class RuleState {

    volatile KeyedLimiter limiter;
    final RuleStats stats;
    final String strategyName;
    final int maxKeys;
    final StoreSpec store;
    private volatile Mode modeOverride;
    /** Keys paused by {@code Retry-After} answers ({@code http-client:} rules that honour it); made at first use. */
    private volatile KeyPauses pauses;

    /**
     * Every limiter of the rule by slot ({@code tier/windowMs}: the rule's own limits under "", an override's
     * under its name), so a limit keeps its state across reloads while its tier and window stay.
     */
    final Map<String, KeyedLimiter> slots = new ConcurrentHashMap<>();
    /** The counters of each override, by name, kept across reloads while the name stays. */
    final Map<String, RuleStats> overrideStats = new ConcurrentHashMap<>();

    public RuleState(KeyedLimiter limiter, RuleStats stats, String strategyName, int maxKeys, StoreSpec store) {
        this.limiter = limiter;
        this.store = store;
        this.stats = stats;
        this.strategyName = strategyName;
        this.maxKeys = maxKeys;
    }

    /** The rule's own counters. */
    public RuleStats stats() {
        return stats;
    }

    /** The limiter of {@code slot}, or null if this state has none (yet). */
    public KeyedLimiter slot(String slot) {
        return slots.get(slot);
    }

    /**
     * Makes {@code slots} this rule's limiters (after a load succeeded): new ones are added, those the file no
     * longer has are dropped with their state. {@code first} becomes the rule's {@link Rule#limiter()}.
     */
    public void slots(Map<String, KeyedLimiter> next, KeyedLimiter first) {
        slots.keySet().retainAll(next.keySet());
        slots.putAll(next);
        limiter = first;
    }

    /** The counters of override {@code name}, created on first use and kept while the name stays. */
    public RuleStats overrideStats(String name) {
        return overrideStats.computeIfAbsent(name, n -> new RuleStats());
    }

    /** Drops the counters of overrides the file no longer has. */
    public void keepOverrides(Set<String> names) {
        overrideStats.keySet().retainAll(names);
    }

    /** The keys paused by {@code Retry-After} answers, made at the first use (most rules never have any). */
    public KeyPauses pauses() {
        KeyPauses made = pauses;
        if (made == null) {
            synchronized (this) {
                made = pauses;
                if (made == null) {
                    made = new KeyPauses();
                    pauses = made;
                }
            }
        }
        return made;
    }

    /** How many keys are paused now, without making the board. */
    public int pausedKeys() {
        KeyPauses made = pauses;
        return made == null ? 0 : made.size();
    }

    public Mode modeOverride() {
        return modeOverride;
    }

    public void modeOverride(Mode mode) {
        this.modeOverride = mode;
    }
}
