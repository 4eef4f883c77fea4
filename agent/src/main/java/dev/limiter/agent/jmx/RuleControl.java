package dev.limiter.agent.jmx;

import dev.limiter.agent.diagnostics.UnloadedClasses;
import dev.limiter.agent.method.AnnotatedRules;
import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.Outcome;
import dev.limiter.rules.Mode;
import dev.limiter.rules.Policy;
import dev.limiter.rules.PolicyOverride;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.Tier;
import dev.limiter.rules.condition.Condition;
import dev.limiter.rules.reload.RuleSetHolder;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The {@link RuleMXBean} of one rule id: the rules file's rule of that id, else the {@code @Limit} annotation's
 * ({@link AnnotatedRules#effective}). It holds the id, not the {@link Rule}: a rule object belongs to one
 * immutable snapshot and is replaced on every reload, while the MBean lives as long as the id does, so each call
 * looks the rule up in the rules in force. JMX threads only: never on the request path.
 */
final class RuleControl implements RuleMXBean {

    private static final KeyCount[] NONE = new KeyCount[0];

    private final RuleSetHolder holder;
    private final String id;

    RuleControl(RuleSetHolder holder, String id) {
        this.holder = holder;
        this.id = id;
    }

    private Rule rule() {
        Rule rule = AnnotatedRules.effective(holder.current(), id);
        if (rule == null) {
            throw new IllegalStateException("rule '" + id + "' is no longer in the rules in force");
        }
        return rule;
    }

    @Override
    public String getId() {
        return id;
    }

    @Override
    public long getAllowed() {
        return rule().stats().allowed().sum();
    }

    @Override
    public long getRejected() {
        return rule().stats().rejected().sum();
    }

    @Override
    public long getWouldReject() {
        return rule().stats().wouldReject().sum();
    }

    @Override
    public long getErrors() {
        return rule().stats().errors().sum();
    }

    @Override
    public int getActiveKeys() {
        return rule().limiter().activeKeys();
    }

    @Override
    public long getKeysRefused() {
        return rule().limiter().keysRefused();
    }

    @Override
    public long getKeysAdmittedWithoutState() {
        return rule().limiter().keysAdmittedWithoutState();
    }

    @Override
    public long getLimit() {
        return rule().limiter().config().limit();
    }

    @Override
    public long getWindowMillis() {
        return rule().limiter().config().windowMillis();
    }

    @Override
    public long getCapacity() {
        return rule().limiter().config().capacity();
    }

    @Override
    public String getStrategy() {
        return rule().strategyName();
    }

    @Override
    public String getKey() {
        return rule().key().toString();
    }

    @Override
    public String getMatch() {
        return rule().matchText();
    }

    @Override
    public String getSource() {
        RuleSet current = holder.current();
        AnnotatedRules.Declared annotation = AnnotatedRules.declared(id);
        if (current.rule(id) == null) {
            return annotation == null ? "" : annotation.source();
        }
        Path file = current.source() == null ? holder.file() : current.source();
        String fromFile = (file == null || file.getFileName() == null ? "rules" : file.getFileName().toString())
                + ":" + current.line(id);
        return annotation == null ? fromFile : fromFile + " (overrides " + annotation.source() + ")";
    }

    @Override
    public String getMode() {
        return rule().mode().spelling();
    }

    @Override
    public void setMode(String mode) {
        String text = mode == null ? "" : mode.trim().toLowerCase(Locale.ROOT);
        if (text.isEmpty() || text.equals("file")) {
            rule().setMode(null);
            return;
        }
        Mode parsed = Mode.bySpelling(text.replace('_', '-'));
        if (parsed == null) {
            throw new IllegalArgumentException("mode must be enforce, dry-run or file, not '" + mode + "'");
        }
        rule().setMode(parsed);
    }

    @Override
    public String getFileMode() {
        return rule().fileMode().spelling();
    }

    @Override
    public KeyCount[] getTopRejectedKeys() {
        TopKeys top = TopKeys.of(rule().stats());
        return top == null ? NONE : top.snapshot();
    }

    @Override
    public long getTopRejectedKeysDropped() {
        TopKeys top = TopKeys.of(rule().stats());
        return top == null ? 0 : top.dropped();
    }

    @Override
    public long getExempt() {
        return rule().stats().exempt().sum();
    }

    @Override
    public boolean isNeverMatched() {
        RuleStats stats = rule().stats();
        return stats.allowed().sum() == 0 && stats.rejected().sum() == 0 && stats.wouldReject().sum() == 0
                && stats.exempt().sum() == 0 && stats.errors().sum() == 0;
    }

    @Override
    public boolean isNoClassLoaded() {
        return UnloadedClasses.isUnloaded(id);
    }

    @Override
    public long getWaited() {
        return rule().stats().waited().sum();
    }

    @Override
    public long getWaitMillisTotal() {
        return rule().stats().waitNanos().sum() / 1_000_000L;
    }

    @Override
    public int getWaiting() {
        return rule().stats().waiting();
    }

    @Override
    public long getAdaptiveLimit() {
        AdaptiveState state = AdaptiveState.of(rule(), "");
        return state == null ? -1 : state.limit();
    }

    @Override
    public long getAdaptiveInFlight() {
        AdaptiveState state = AdaptiveState.of(rule(), "");
        return state == null ? -1 : state.inFlight();
    }

    @Override
    public long getAdaptiveNoLoadMicros() {
        AdaptiveState state = AdaptiveState.of(rule(), "");
        return state == null ? -1 : state.noLoadMicros();
    }

    @Override
    public long getAdaptiveLatencyMicros() {
        AdaptiveState state = AdaptiveState.of(rule(), "");
        return state == null ? -1 : state.latencyMicros();
    }

    @Override
    public String adaptive(String key) {
        AdaptiveState state = AdaptiveState.of(rule(), key);
        return state == null ? "not adaptive" : state.toString();
    }

    @Override
    public long getWaitRefused() {
        return rule().stats().waitRefused().sum();
    }

    @Override
    public long getBackOffs() {
        return rule().stats().backOffs().sum();
    }

    @Override
    public int getPausedKeys() {
        return rule().pausedKeys();
    }

    @Override
    public String getLimits() {
        return rule().policy().main().describe();
    }

    @Override
    public String[] getOverrides() {
        PolicyOverride[] overrides = rule().policy().overrides();
        String[] lines = new String[overrides.length];
        for (int i = 0; i < overrides.length; i++) {
            Tier tier = overrides[i].tier();
            RuleStats stats = tier.stats();
            lines[i] = tier.name() + ": " + overrides[i].describeMatch() + " -> " + tier.describe() + " (allowed "
                    + stats.allowed().sum() + ", rejected " + stats.rejected().sum() + ", would-reject "
                    + stats.wouldReject().sum() + ")";
        }
        return lines;
    }

    @Override
    public String getConditions() {
        Policy policy = rule().policy();
        List<String> parts = new ArrayList<>();
        if (policy.match() != null) {
            parts.add("when " + policy.match());
        }
        for (Condition condition : policy.unless()) {
            parts.add("unless " + condition);
        }
        parts.add(policy.costArgument() < 0 ? "cost " + policy.cost() : "cost arg:" + policy.costArgument());
        return String.join("; ", parts);
    }

    @Override
    public void reset() {
        Rule rule = rule();
        for (KeyedLimiter limiter : allLimiters(rule)) {
            limiter.reset();
        }
        rule.stats().reset();
        for (PolicyOverride override : rule.policy().overrides()) {
            if (override.tier().stats() != rule.stats()) {
                override.tier().stats().reset();
            }
        }
        TopKeys top = TopKeys.of(rule.stats());
        if (top != null) {
            top.clear();
        }
    }

    @Override
    public void resetKey(String key) {
        for (KeyedLimiter limiter : allLimiters(rule())) {
            limiter.resetKey(key == null ? "" : key);
        }
    }

    /**
     * The least any limit of the key's tier has left (its override by key, else the rule's own limits);
     * overrides by request condition cannot be told from a key alone. {@code Long.MAX_VALUE} for an unlimited
     * key.
     */
    @Override
    public long remaining(String key) {
        String k = key == null ? "" : key;
        Tier tier = rule().policy().main();
        for (PolicyOverride override : rule().policy().overrides()) {
            if (override.when() == null && override.keys().contains(k)) {
                tier = override.tier();
                break;
            }
        }
        long least = Long.MAX_VALUE;
        long[] out = Outcome.newArray();
        for (KeyedLimiter limiter : tier.limiters()) {
            least = Math.min(least, limiter.remaining(k, out));
        }
        return least;
    }

    /** Every limiter of the rule: its own limits' and its overrides'. */
    private static List<KeyedLimiter> allLimiters(Rule rule) {
        List<KeyedLimiter> limiters = new ArrayList<>(List.of(rule.policy().main().limiters()));
        for (PolicyOverride override : rule.policy().overrides()) {
            limiters.addAll(List.of(override.tier().limiters()));
        }
        return limiters;
    }
}
