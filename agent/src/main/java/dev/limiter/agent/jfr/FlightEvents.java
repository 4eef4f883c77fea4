package dev.limiter.agent.jfr;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RulesError;
import dev.limiter.rules.RulesException;
import dev.limiter.rules.key.PrintableKey;
import dev.limiter.rules.reload.ReloadListener;
import dev.limiter.rules.reload.RuleSetHolder;
import dev.limiter.redis.StoreFailureListener;

/**
 * Commits the limiter's JDK Flight Recorder events ({@code dev.limiter.Rejection}, {@code dev.limiter.Reload},
 * {@code dev.limiter.StoreFailure}). Each is disabled by default and costs a check of JFR's own flag until a
 * recording enables it ({@code jcmd PID JFR.start settings=...} with the events on): the event object is created
 * and filled only after {@code isEnabled()} says yes, and the JIT removes the disabled case's allocation.
 *
 * <p>Only after {@link FlightRecorderSupport#AVAILABLE}: this class links the event classes.
 */
public final class FlightEvents {

    private FlightEvents() {
    }

    /**
     * A rejection by {@code rule} of {@code key} ({@code enforce}: rejected; else dry-run's would-reject). The
     * retry-after is read back from the rule's limiter (a peek, no permit taken) and only while a recording wants
     * the event: the decision's own outcome does not reach this hook.
     */
    public static void rejected(Rule rule, boolean enforce, String key, long retryAfterMillis) {
        RejectionEvent event = new RejectionEvent();
        if (!event.isEnabled()) {
            return;
        }
        event.rule = rule.id();
        event.key = PrintableKey.of(key);
        event.strategy = rule.strategyName();
        event.dryRun = !enforce;
        event.retryAfter = retryAfterMillis;
        event.commit();
    }

    /** A listener committing one {@code dev.limiter.Reload} per reload of {@code holder}. */
    public static ReloadListener reloads(RuleSetHolder holder) {
        return new Reloads(holder);
    }

    /** A listener committing one {@code dev.limiter.StoreFailure} per failed Redis round trip. */
    public static StoreFailureListener storeFailures() {
        return new StoreFailures();
    }

    private static final class Reloads implements ReloadListener {

        private final RuleSetHolder holder;

        Reloads(RuleSetHolder holder) {
            this.holder = holder;
        }

        @Override
        public void reloaded(RuleSet previous, RuleSet current) {
            ReloadEvent event = new ReloadEvent();
            if (event.isEnabled()) {
                commit(event, true, "", current.rules().size());
            }
        }

        @Override
        public void reloadFailed(RulesException error, RuleSet current) {
            ReloadEvent event = new ReloadEvent();
            if (!event.isEnabled()) {
                return;
            }
            StringBuilder text = new StringBuilder();
            for (RulesError problem : error.errors()) {
                text.append(text.length() == 0 ? "" : "\n").append(problem);
            }
            commit(event, false, text.toString(), current.rules().size());
        }

        private void commit(ReloadEvent event, boolean ok, String error, int rules) {
            event.ok = ok;
            event.error = error;
            event.ruleCount = rules;
            event.loadTime = holder.lastLoadNanos();
            event.commit();
        }
    }

    private static final class StoreFailures implements StoreFailureListener {

        @Override
        public void failed(String store, boolean timeout, String message) {
            StoreFailureEvent event = new StoreFailureEvent();
            if (!event.isEnabled()) {
                return;
            }
            event.store = store;
            event.kind = timeout ? "timeout" : "error";
            event.message = message;
            event.commit();
        }
    }
}
