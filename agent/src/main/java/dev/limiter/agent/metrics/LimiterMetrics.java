package dev.limiter.agent.metrics;

import dev.limiter.agent.jmx.AdaptiveState;
import dev.limiter.agent.store.RedisLimiterFactory;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.redis.RedisStore;
import dev.limiter.redis.RedisStoreStats;
import dev.limiter.redis.StoreState;
import dev.limiter.rules.PolicyOverride;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.Tier;
import dev.limiter.rules.reload.RuleSetHolder;
import java.util.List;

/**
 * The limiter's metrics in Prometheus' names (docs/metrics.md), read at scrape time from the same objects the
 * MBeans read: the rules' {@link RuleStats} counters and limiters, the {@link RuleSetHolder}'s reload counts, the
 * bridge's kill switch and the Redis store's {@link RedisStoreStats}. Nothing is kept or counted twice, so the
 * request path does no work for a scrape; a scrape sums the {@code LongAdder}s as a JMX read does.
 *
 * <p>One deliberate gap: a Redis rule has no {@code limiter_active_keys} (its keys live in Redis; counting them is
 * a SCAN of the whole keyspace, which a scrape every few seconds must not cause, and a failed SCAN would open the
 * store's circuit).
 */
final class LimiterMetrics {

    /** The store latency histogram's bounds: powers of two of microseconds, exact edges of its buckets. */
    static final long[] LATENCY_BOUNDS_MICROS = {64, 128, 256, 512, 1 << 10, 1 << 11, 1 << 12, 1 << 13, 1 << 14,
        1 << 15, 1 << 16, 1 << 17, 1 << 18, 1 << 19, 1 << 20};
    private static final String[] LATENCY_LE = les(LATENCY_BOUNDS_MICROS);

    private final RuleSetHolder holder;
    private final RedisLimiterFactory store;

    /** {@code store}: null when the agent has none (tests); then no store metrics. */
    LimiterMetrics(RuleSetHolder holder, RedisLimiterFactory store) {
        this.holder = holder;
        this.store = store;
    }

    /** The whole exposition, in {@code format}. */
    String render(ExpositionFormat format) {
        MetricsWriter w = new MetricsWriter(format);
        RuleSet rules = holder.current();
        List<Rule> all = rules.rules();

        w.gauge("limiter_enabled", "1 while the limiter decides, 0 while its kill switch is off.");
        w.sample("limiter_enabled", LimiterBridge.isEnabled() ? 1 : 0);
        w.gauge("limiter_rules", "Rules in force.");
        w.sample("limiter_rules", all.size());
        w.counter("limiter_reloads", "Reloads of the rules file since start, by result (failed: previous rules"
                + " kept).");
        w.sample("limiter_reloads_total", "result", "ok", holder.reloadCount());
        w.sample("limiter_reloads_total", "result", "failed", holder.failedReloadCount());

        w.counter("limiter_decisions", "Decisions per rule, by outcome (would_reject: dry-run rules; error: the"
                + " rule failed and on-error decided).");
        for (Rule rule : all) {
            RuleStats stats = rule.stats();
            String id = rule.id();
            w.sample("limiter_decisions_total", "rule", id, "outcome", "allowed", stats.allowed().sum());
            w.sample("limiter_decisions_total", "rule", id, "outcome", "rejected", stats.rejected().sum());
            w.sample("limiter_decisions_total", "rule", id, "outcome", "would_reject", stats.wouldReject().sum());
            w.sample("limiter_decisions_total", "rule", id, "outcome", "exempt", stats.exempt().sum());
            w.sample("limiter_decisions_total", "rule", id, "outcome", "error", stats.errors().sum());
        }
        w.gauge("limiter_active_keys", "Keys with live state in this JVM, per rule (local rules only).");
        for (Rule rule : all) {
            if (!rule.store().isRedis()) {
                w.sample("limiter_active_keys", "rule", rule.id(), rule.limiter().activeKeys());
            }
        }
        w.gauge("limiter_limit", "The limit in force per rule (requests per window, or concurrent calls).");
        for (Rule rule : all) {
            w.sample("limiter_limit", "rule", rule.id(), rule.limiter().config().limit());
        }
        w.counter("limiter_keys_refused", "Requests of new keys refused because the rule's key table was full of"
                + " live state.");
        for (Rule rule : all) {
            w.sample("limiter_keys_refused_total", "rule", rule.id(), rule.limiter().keysRefused());
        }
        w.counter("limiter_keys_admitted_without_state", "Requests of new keys admitted without state because the"
                + " rule's key table was full of live state (on-full: allow).");
        for (Rule rule : all) {
            w.sample("limiter_keys_admitted_without_state_total", "rule", rule.id(),
                    rule.limiter().keysAdmittedWithoutState());
        }
        waits(w, all);
        adaptive(w, all);
        overrides(w, all);
        w.counter("limiter_internal_errors", "Failures of the agent's own code, caught, counted and logged; the"
                + " request went on as on-error says.");
        w.sample("limiter_internal_errors_total", LimiterBridge.internalErrors());
        RedisStore redis = store == null ? null : store.active();
        if (redis != null) {
            store(w, redis.stats());
        }
        return w.finish();
    }

    /** The {@code on-limit: wait} counters, per rule (zero for rules that never wait). */
    private static void waits(MetricsWriter w, List<Rule> all) {
        w.counter("limiter_waits", "Calls admitted after waiting for their permit (on-limit: wait).");
        for (Rule rule : all) {
            w.sample("limiter_waits_total", "rule", rule.id(), rule.stats().waited().sum());
        }
        w.counter("limiter_wait_seconds", "The waits of those calls, summed.");
        for (Rule rule : all) {
            w.sampleSeconds("limiter_wait_seconds_total", "rule", rule.id(), rule.stats().waitNanos().sum());
        }
        w.gauge("limiter_waiting", "Calls parked right now for their permit (bounded by max-waiters).");
        for (Rule rule : all) {
            w.sample("limiter_waiting", "rule", rule.id(), rule.stats().waiting());
        }
        w.counter("limiter_wait_refused", "Calls that would have waited but were rejected at once (every waiter"
                + " slot taken, or an event loop, which never parks); also counted as rejected.");
        for (Rule rule : all) {
            w.sample("limiter_wait_refused_total", "rule", rule.id(), rule.stats().waitRefused().sum());
        }
        w.counter("limiter_backoffs", "Answers 429 or 503 with Retry-After that paused a key of an http-client"
                + " rule (honor-retry-after).");
        for (Rule rule : all) {
            w.sample("limiter_backoffs_total", "rule", rule.id(), rule.stats().backOffs().sum());
        }
        w.gauge("limiter_paused_keys", "Keys of an http-client rule paused by a Retry-After answer now.");
        for (Rule rule : all) {
            w.sample("limiter_paused_keys", "rule", rule.id(), rule.pausedKeys());
        }
    }

    /** What each {@code adaptive} rule has learned for its global key, as JMX's {@code Adaptive*} shows it. */
    private static void adaptive(MetricsWriter w, List<Rule> all) {
        List<Rule> adaptive = new java.util.ArrayList<>();
        List<AdaptiveState> states = new java.util.ArrayList<>();
        for (Rule rule : all) {
            AdaptiveState state = AdaptiveState.of(rule, "");
            if (state != null) {
                adaptive.add(rule);
                states.add(state);
            }
        }
        if (adaptive.isEmpty()) {
            return;
        }
        w.gauge("limiter_adaptive_limit", "The limit an adaptive rule found, now (calls in flight).");
        for (int i = 0; i < adaptive.size(); i++) {
            w.sample("limiter_adaptive_limit", "rule", adaptive.get(i).id(), states.get(i).limit());
        }
        w.gauge("limiter_adaptive_in_flight", "An adaptive rule's admitted calls not finished yet.");
        for (int i = 0; i < adaptive.size(); i++) {
            w.sample("limiter_adaptive_in_flight", "rule", adaptive.get(i).id(), states.get(i).inFlight());
        }
        w.gauge("limiter_adaptive_no_load_seconds", "An adaptive rule's estimate of the latency when nothing"
                + " queues (0 until measured).");
        for (int i = 0; i < adaptive.size(); i++) {
            w.sampleSeconds("limiter_adaptive_no_load_seconds", "rule", adaptive.get(i).id(),
                    states.get(i).noLoadMicros() * 1000);
        }
        w.gauge("limiter_adaptive_latency_seconds", "The mean latency of an adaptive rule's last sampling window.");
        for (int i = 0; i < adaptive.size(); i++) {
            w.sampleSeconds("limiter_adaptive_latency_seconds", "rule", adaptive.get(i).id(),
                    states.get(i).latencyMicros() * 1000);
        }
    }

    /** Each override's own decisions, as JMX's {@code Overrides} shows them. */
    private static void overrides(MetricsWriter w, List<Rule> all) {
        w.counter("limiter_override_decisions", "Decisions per override of a rule (its plan), by outcome.");
        for (Rule rule : all) {
            for (PolicyOverride override : rule.policy().overrides()) {
                Tier tier = override.tier();
                RuleStats stats = tier.stats();
                String id = rule.id();
                String name = tier.name();
                w.sample("limiter_override_decisions_total", "rule", id, "override", name, "outcome", "allowed",
                        stats.allowed().sum());
                w.sample("limiter_override_decisions_total", "rule", id, "override", name, "outcome", "rejected",
                        stats.rejected().sum());
                w.sample("limiter_override_decisions_total", "rule", id, "override", name, "outcome",
                        "would_reject", stats.wouldReject().sum());
            }
        }
    }

    private static void store(MetricsWriter w, RedisStoreStats stats) {
        w.counter("limiter_store_calls", "Round trips to Redis by result (timeout is part of error), and checks"
                + " decided by on-failure (fallback).");
        w.sample("limiter_store_calls_total", "result", "ok", stats.getRoundTrips());
        w.sample("limiter_store_calls_total", "result", "timeout", stats.getTimeouts());
        w.sample("limiter_store_calls_total", "result", "error", stats.getErrors());
        w.sample("limiter_store_calls_total", "result", "fallback", stats.getFallbacks());
        w.gauge("limiter_store_circuit_open", "1 while the Redis store's circuit is open (on-failure decides).");
        w.sample("limiter_store_circuit_open", stats.getState() == StoreState.FALLBACK ? 1 : 0);
        w.histogram("limiter_store_latency_seconds", "Round-trip time of successful Redis checks (no _sum: the"
                + " store's histogram keeps counts only).");
        long[] below = stats.latencyCountsBelow(LATENCY_BOUNDS_MICROS);
        for (int i = 0; i < LATENCY_LE.length; i++) {
            w.sample("limiter_store_latency_seconds_bucket", "le", LATENCY_LE[i], below[i]);
        }
        w.sample("limiter_store_latency_seconds_bucket", "le", "+Inf", below[LATENCY_LE.length]);
        w.sample("limiter_store_latency_seconds_count", below[LATENCY_LE.length]);
    }

    /** Microseconds as seconds in plain decimal ({@code 64} -> {@code 0.000064}), without BigDecimal. */
    static String seconds(long micros) {
        String fraction = Long.toString(1_000_000 + micros % 1_000_000).substring(1);
        int end = fraction.length();
        while (end > 1 && fraction.charAt(end - 1) == '0') {
            end--;
        }
        return micros / 1_000_000 + "." + fraction.substring(0, end);
    }

    private static String[] les(long[] micros) {
        String[] les = new String[micros.length];
        for (int i = 0; i < micros.length; i++) {
            les[i] = seconds(micros[i]);
        }
        return les;
    }
}
