package dev.limiter.agent.jmx;

import javax.management.ConstructorParameters;

/**
 * One entry of a rule's top rejected keys, as JMX shows it (a {@code CompositeData} with {@code key},
 * {@code count} and {@code error}).
 *
 * <p>A class with getters rather than a record: the MXBean mapping of Java 17 builds composite types from
 * {@code getX()} methods and does not know record components.
 */
public final class KeyCount {

    private final String key;
    private final long count;
    private final long error;

    @ConstructorParameters({"key", "count", "error"})
    public KeyCount(String key, long count, long error) {
        this.key = key;
        this.count = count;
        this.error = error;
    }

    /** The key (empty: the rule's global budget, or requests without the key's value). */
    public String getKey() {
        return key;
    }

    /** Rejections counted for the key; overestimates by at most {@link #getError()}. */
    public long getCount() {
        return count;
    }

    /** How much of {@link #getCount()} may belong to keys this one displaced from the summary. */
    public long getError() {
        return error;
    }

    @Override
    public String toString() {
        return key + "=" + count + (error == 0 ? "" : " (±" + error + ")");
    }
}
