package dev.limiter.agent.cli;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import javax.management.JMException;
import javax.management.openmbean.CompositeData;

/**
 * Reads a {@link LimiterStatus} from the limiter's MBeans: one {@code getAttributes} round trip per MBean. The
 * counters of different rules are read one after another, not at one instant (JMX has no snapshot), which is
 * what any console shows too.
 */
final class StatusReader {

    private static final String[] LIMITER = {"Version", "RulesFile", "Enabled", "RuleCount", "ReloadCount",
        "FailedReloadCount", "LastReloadTime", "LastReloadError", "WovenTypes", "InternalErrors", "Reweaving", "LastReweave"};
    private static final String[] RULE = {"Match", "Key", "Strategy", "Limit", "WindowMillis", "Capacity", "Mode",
        "FileMode", "Allowed", "Rejected", "WouldReject", "Errors", "ActiveKeys", "KeysRefused", "NoClassLoaded",
        "TopRejectedKeys", "AdaptiveLimit"};
    private static final String[] STORE = {"Type", "State", "Uri", "OnFailure", "RoundTrips", "Errors", "Timeouts",
        "Fallbacks", "CircuitOpens", "LatencyP50Micros", "LatencyP99Micros", "LatencyMaxMicros"};

    private final LimiterMBeans mbeans;

    StatusReader(LimiterMBeans mbeans) {
        this.mbeans = mbeans;
    }

    LimiterStatus read(long pid) throws IOException, JMException {
        LimiterMBeans.Values limiter = mbeans.read(LimiterMBeans.LIMITER, LIMITER);
        List<RuleStatus> rules = new ArrayList<>();
        for (LimiterMBeans.Rule rule : mbeans.rules()) {
            rules.add(rule(rule.id(), mbeans.read(rule.name(), RULE)));
        }
        return new LimiterStatus(pid, limiter.text("Version"), limiter.text("RulesFile"), limiter.flag("Enabled"),
                (int) limiter.number("RuleCount"), limiter.number("ReloadCount"),
                limiter.number("FailedReloadCount"), limiter.text("LastReloadTime"),
                limiter.text("LastReloadError"), limiter.number("WovenTypes"), limiter.number("InternalErrors"),
                limiter.text("Reweaving"), limiter.text("LastReweave"), rules, store());
    }

    private static RuleStatus rule(String id, LimiterMBeans.Values values) {
        return new RuleStatus(id, values.text("Match"), values.text("Key"), values.text("Strategy"),
                values.number("Limit"), values.number("WindowMillis"), values.number("Capacity"),
                values.text("Mode"), values.text("FileMode"), values.number("Allowed"), values.number("Rejected"),
                values.number("WouldReject"), values.number("Errors"), values.number("ActiveKeys"),
                values.number("KeysRefused"), values.flag("NoClassLoaded"), topKeys(values.get("TopRejectedKeys")),
                values.number("AdaptiveLimit"));
    }

    /** The MXBean maps {@code KeyCount[]} to {@code CompositeData[]} with {@code key}, {@code count}, {@code error}. */
    static List<TopKey> topKeys(Object value) {
        List<TopKey> keys = new ArrayList<>();
        if (value instanceof CompositeData[] entries) {
            for (CompositeData entry : entries) {
                if (entry != null && entry.get("key") instanceof String key && entry.get("count") instanceof Number count) {
                    long error = entry.containsKey("error") && entry.get("error") instanceof Number e ? e.longValue() : 0;
                    keys.add(new TopKey(key, count.longValue(), error));
                }
            }
        }
        return keys;
    }

    private StoreStatus store() throws IOException, JMException {
        if (!mbeans.storeRegistered()) {
            return null;
        }
        LimiterMBeans.Values store = mbeans.read(LimiterMBeans.STORE, STORE);
        return new StoreStatus(store.text("Type"), store.text("State"), store.text("Uri"), store.text("OnFailure"),
                store.number("RoundTrips"), store.number("Errors"), store.number("Timeouts"),
                store.number("Fallbacks"), store.number("CircuitOpens"), store.number("LatencyP50Micros"),
                store.number("LatencyP99Micros"), store.number("LatencyMaxMicros"));
    }
}
