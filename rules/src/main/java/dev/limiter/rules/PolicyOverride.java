package dev.limiter.rules;

import dev.limiter.rules.condition.Condition;
import dev.limiter.rules.condition.RequestFacts;
import java.util.Set;

/**
 * One entry of a rule's {@code overrides}: the requests it applies to (by the value of the rule's key, or by a
 * condition on the request) and the {@link Tier} they get instead of the rule's own limits.
 */
public final class PolicyOverride {

    private final Set<String> keys;
    private final Condition when;
    private final Tier tier;

    /** Exactly one of {@code keys} (non-empty) and {@code when} is given. */
    public PolicyOverride(Set<String> keys, Condition when, Tier tier) {
        this.keys = keys == null ? Set.of() : Set.copyOf(keys);
        this.when = when;
        this.tier = tier;
    }

    /** True if this override applies to a call with {@code key} on {@code request}. */
    boolean applies(String key, RequestFacts request) throws Throwable {
        return when == null ? keys.contains(key) : when.holds(request);
    }

    public Set<String> keys() {
        return keys;
    }

    /** The request condition, or null for an override by key. */
    public Condition when() {
        return when;
    }

    public Tier tier() {
        return tier;
    }

    /** What it applies to, for JMX: {@code keys [k-gold-1, k-gold-2]} or {@code when headers {X-Plan: 'pro'}}. */
    public String describeMatch() {
        return when == null ? "keys " + keys : "when " + when;
    }
}
