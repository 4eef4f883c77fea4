package dev.limiter.rules.compile;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.OnFull;
import dev.limiter.core.LimitConfig;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RuleState;
import dev.limiter.rules.RuleStats;
import dev.limiter.rules.condition.Condition;
import dev.limiter.rules.Policy;
import dev.limiter.rules.PolicyOverride;
import dev.limiter.rules.Tier;
import dev.limiter.rules.yaml.YamlNode;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns validated rules into live ones: each keeps the previous rule's limiter and counters when it survives a
 * reload, or gets a new limiter from the {@link LimiterFactory}. Runs only after the whole file validated, and
 * changes nothing live unless every rule can have its state.
 *
 * <p>Two steps, so that the rules in force change all at once: {@link #prepare} builds the new rules (and new
 * limiters) without touching anything the rules in force use; {@link #commit} then changes the surviving
 * limiters and states, and is called when everything else of the new set is built, just before it is published.
 * Until then the rules in force keep deciding with their own limits and stating them in their headers.
 */
final class LiveState {

    private final LimiterFactory factory;
    private final FileProblems problems;
    private final List<Rule> rules = new ArrayList<>();
    private final List<KeyedLimiter> reused = new ArrayList<>();
    private final List<LimitConfig> reusedConfigs = new ArrayList<>();
    private final List<YamlNode> reusedAt = new ArrayList<>();
    private final List<String> reusedRule = new ArrayList<>();
    /** The surviving rules' states, changed by {@link #commit} after their limiters took their new limits. */
    private final List<Survivor> survivors = new ArrayList<>();

    private LiveState(LimiterFactory factory, FileProblems problems) {
        this.factory = factory;
        this.problems = problems;
    }

    /**
     * The live rules of {@code drafts}, carrying over the state of {@code previous}'s, not yet committed; or
     * throws every problem (having changed nothing).
     */
    static LiveState prepare(List<RuleDraft> drafts, RuleSet previous, LimiterFactory factory,
            FileProblems problems) {
        LiveState live = new LiveState(factory, problems);
        live.build(drafts, previous);
        return live;
    }

    /** The new rules, in file order. */
    List<Rule> rules() {
        return rules;
    }

    /**
     * Makes the prepared rules' state live: the surviving limiters take their new limits (all or none; a refusal
     * throws every problem and leaves the rules in force as they were), then the surviving states their new slots,
     * {@code on-full} and mode. Call once, as the last step before the new set is published.
     */
    void commit() {
        reconfigureAll();
        for (Survivor survivor : survivors) {
            survivor.apply();
        }
    }

    /**
     * Builds the new rules: a rule keeps {@code previous}'s state when id, strategy, max-keys and store match (a
     * changed store means state elsewhere: new limiters from the factory), and within it each limit keeps its
     * limiter while its slot stays (its tier, and its window when the tier has several limits). New limiters are
     * created here; the surviving ones and their states are only noted, for {@link #commit}, and the new rules'
     * header values state the new limits already.
     */
    private void build(List<RuleDraft> drafts, RuleSet previous) {
        int n = drafts.size();
        Rule[] olds = new Rule[n];
        RuleState[] states = new RuleState[n];
        List<Map<String, KeyedLimiter>> slotMaps = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            RuleDraft draft = drafts.get(i);
            Rule old = previous == null ? null : previous.rule(draft.id());
            if (old != null && old.limiter().strategy().equals(draft.strategy()) && old.maxKeys() == draft.maxKeys()
                    && old.store().equals(draft.store())) {
                olds[i] = old;
                states[i] = old.state();
            }
            Map<String, KeyedLimiter> slots = new LinkedHashMap<>();
            slotMaps.add(slots);
            for (Slot slot : slots(draft)) {
                KeyedLimiter existing = states[i] == null ? null : states[i].slot(slot.name);
                if (existing != null) {
                    slots.put(slot.name, existing);
                    reused.add(existing);
                    reusedConfigs.add(slot.limit.config());
                    reusedAt.add(slot.limit.at());
                    reusedRule.add(draft.id());
                    continue;
                }
                try {
                    String storeId = slot.name.isEmpty() ? draft.id() : draft.id() + "/" + slot.name;
                    slots.put(slot.name, factory.create(storeId, draft.store(), draft.strategy(),
                            slot.limit.config(), draft.maxKeys(), draft.onFull()));
                } catch (RuntimeException e) {
                    problems.add(slot.limit.at(), "rule '" + draft.id() + "': its limiter could not be created: "
                            + reason(e));
                }
            }
        }
        problems.throwIfAny();
        for (int i = 0; i < n; i++) {
            RuleDraft draft = drafts.get(i);
            Map<String, KeyedLimiter> slots = slotMaps.get(i);
            KeyedLimiter first = slots.values().iterator().next();
            RuleState state = states[i];
            if (state == null) {
                state = new RuleState(first, new RuleStats(), draft.strategy().name(), draft.maxKeys(),
                        draft.store());
                state.slots(slots, first); // a new state: no rule in force reads it
            } else {
                Set<String> overrides = new HashSet<>();
                for (PolicyDraft.Override override : draft.policy().overrides()) {
                    overrides.add(override.name());
                }
                survivors.add(new Survivor(state, slots, first, draft.onFull(), olds[i].fileMode() != draft.mode(),
                        overrides));
            }
            Policy policy = policy(draft, state, slots);
            rules.add(new Rule(draft.id(), i, draft.target(), draft.paths(), draft.patterns(), draft.methodBits(),
                    draft.httpMethods(), draft.classGlob(), draft.methodGlob(), draft.key(), draft.mode(),
                    draft.onError(), draft.throwClass(), state, policy, draft.hostMatch(), draft.maxBackoffNanos()));
        }
    }

    /**
     * What a surviving rule's state takes on {@link #commit}: its limiters by slot, the file's {@code on-full} for
     * new keys, the file's mode if the file changed it (a mode set over JMX then goes), and only the counters of
     * the overrides the file still has. A record, not a lambda: the first load runs while the application starts.
     */
    private record Survivor(RuleState state, Map<String, KeyedLimiter> slots, KeyedLimiter first, OnFull onFull,
            boolean fileChangedMode, Set<String> overrides) {

        void apply() {
            for (KeyedLimiter limiter : slots.values()) {
                limiter.onFull(onFull);
            }
            if (fileChangedMode) {
                state.modeOverride(null);
            }
            state.slots(slots, first);
            state.keepOverrides(overrides);
        }
    }

    /** One limit of a rule and the slot its live state is kept under. */
    private record Slot(String name, PolicyDraft.Limit limit) {
    }

    /** The rule's limits with their slots: its own first (the first is {@link Rule#limiter()}), then overrides'. */
    private static List<Slot> slots(RuleDraft draft) {
        List<Slot> slots = new ArrayList<>();
        addTier(slots, "", draft.policy().limits());
        for (PolicyDraft.Override override : draft.policy().overrides()) {
            addTier(slots, override.name(), override.limits());
        }
        return slots;
    }

    /**
     * A tier's slots: its name alone when it has one limit (a changed window reconfigures that limit, as for any
     * rule), else name {@code @} window, so each limit keeps its state while its window stays. Override names
     * cannot contain {@code @}.
     */
    private static void addTier(List<Slot> slots, String tier, List<PolicyDraft.Limit> limits) {
        for (PolicyDraft.Limit limit : limits) {
            String name = limits.size() == 1 ? tier : tier + "@" + limit.config().windowMillis() + "ms";
            slots.add(new Slot(name, limit));
        }
    }

    /** The compiled policy of {@code draft} over its live limiters. */
    private static Policy policy(RuleDraft draft, RuleState state, Map<String, KeyedLimiter> slots) {
        PolicyDraft policy = draft.policy();
        List<Slot> all = slots(draft);
        Tier main = tier(draft.id(), "", policy.limits().size(), all, slots, state.stats());
        PolicyOverride[] overrides = new PolicyOverride[policy.overrides().size()];
        for (int i = 0; i < overrides.length; i++) {
            PolicyDraft.Override override = policy.overrides().get(i);
            RuleStats stats = state.overrideStats(override.name());
            Tier tier = override.limits().isEmpty() ? Tier.unlimited(override.name(), stats)
                    : tier(draft.id(), override.name(), override.limits().size(), all, slots, stats);
            overrides[i] = new PolicyOverride(override.keys(), override.when(), tier);
        }
        return new Policy(policy.match(), policy.unless().toArray(new Condition[0]), main, overrides, policy.cost(),
                policy.costArgument(), policy.maxWaitNanos(), policy.maxWaiters());
    }

    /** The tier {@code name} over its slots' limiters, stating the limits the file gives them. */
    private static Tier tier(String ruleId, String name, int size, List<Slot> all, Map<String, KeyedLimiter> slots,
            RuleStats stats) {
        List<KeyedLimiter> limiters = new ArrayList<>(size);
        List<LimitConfig> configs = new ArrayList<>(size);
        for (Slot slot : all) {
            boolean mine = size == 1 ? slot.name.equals(name) : slot.name.startsWith(name + "@");
            if (mine) {
                limiters.add(slots.get(slot.name));
                configs.add(slot.limit.config());
            }
        }
        return Tier.of(ruleId, name, limiters, configs, stats);
    }

    /**
     * Applies the new limits to every surviving limiter, or to none: validation already ran each strategy's
     * check, so only a limiter with limits of its own (a store's) can refuse here; then the limiters changed so
     * far get their previous configuration back and the load fails at the refusing limit.
     */
    private void reconfigureAll() {
        List<KeyedLimiter> changed = new ArrayList<>();
        List<LimitConfig> before = new ArrayList<>();
        for (int i = 0; i < reused.size(); i++) {
            KeyedLimiter limiter = reused.get(i);
            LimitConfig old = limiter.config();
            LimitConfig next = reusedConfigs.get(i);
            if (old.sameLimits(next)) {
                continue;
            }
            try {
                limiter.reconfigure(next);
            } catch (RuntimeException e) {
                for (int j = changed.size() - 1; j >= 0; j--) {
                    try {
                        changed.get(j).reconfigure(before.get(j));
                    } catch (RuntimeException ignored) {
                        // it ran with these limits a moment ago: nothing better to put back
                    }
                }
                problems.add(reusedAt.get(i), "rule '" + reusedRule.get(i) + "': its limiter refuses the new"
                        + " limits (" + reason(e) + "); no rule was changed");
                problems.throwIfAny();
            }
            changed.add(limiter);
            before.add(old);
        }
    }

    private static String reason(RuntimeException e) {
        return e.getMessage() == null || e.getMessage().isBlank() ? e.toString() : e.getMessage();
    }
}
