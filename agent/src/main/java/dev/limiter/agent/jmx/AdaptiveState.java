package dev.limiter.agent.jmx;

import dev.limiter.core.Bucket;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.strategy.adaptive.AdaptiveBucket;
import dev.limiter.core.strategy.adaptive.AdaptiveStrategy;
import dev.limiter.rules.Rule;

/**
 * What an {@code adaptive} rule has learned for one key, read for operators (JMX, the metrics endpoint, status):
 * the limit now, the calls in flight, the no-load and the last window's latency. A key with no state yet has the
 * rule's initial limit and has measured nothing.
 *
 * @param limit the limit in force
 * @param inFlight admitted calls not finished
 * @param noLoadMicros the no-load latency estimate, microseconds (0: not measured yet)
 * @param latencyMicros the last window's mean latency, microseconds (0: no window closed yet)
 */
public record AdaptiveState(long limit, long inFlight, long noLoadMicros, long latencyMicros) {

    /** The state of {@code key} on {@code rule}'s own limit, or null if the rule is not adaptive. */
    public static AdaptiveState of(Rule rule, String key) {
        KeyedLimiter limiter = rule.limiter();
        if (!(limiter.strategy() instanceof AdaptiveStrategy adaptive)) {
            return null;
        }
        Bucket bucket = limiter.stateOf(key == null ? "" : key);
        if (!(bucket instanceof AdaptiveBucket learned)) {
            long initial = Math.min(limiter.config().limit(), adaptive.settings().initialLimit());
            return new AdaptiveState(initial, 0, 0, 0);
        }
        return new AdaptiveState(learned.limit(), Math.max(0, learned.slot0()), learned.noLoadNanos() / 1000,
                learned.lastMeanNanos() / 1000);
    }

    @Override
    public String toString() {
        return "limit " + limit + ", in flight " + inFlight + ", no-load " + millis(noLoadMicros) + ", last window "
                + millis(latencyMicros);
    }

    private static String millis(long micros) {
        return micros == 0 ? "not measured" : String.format(java.util.Locale.ROOT, "%.1f ms", micros / 1000.0);
    }
}
