package dev.limiter.rules.compile;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.rules.LimiterFactory;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.RuleState;
import dev.limiter.rules.RuleStats;
import java.util.ArrayList;
import java.util.List;

/**
 * Turns validated rules into live ones: each keeps the previous rule's limiter and counters when it survives a
 * reload, or gets a new limiter from the {@link LimiterFactory}. Runs only after the whole file validated, and
 * changes nothing live unless every rule can have its state.
 */
final class LiveState {

    private final LimiterFactory factory;
    private final FileProblems problems;

    private LiveState(LimiterFactory factory, FileProblems problems) {
        this.factory = factory;
        this.problems = problems;
    }

    /** The live rules of {@code drafts}, carrying over the state of {@code previous}'s; or throws every problem. */
    static List<Rule> of(List<RuleDraft> drafts, RuleSet previous, LimiterFactory factory, FileProblems problems) {
        return new LiveState(factory, problems).build(drafts, previous);
    }

    /**
     * Gives the validated rules their live state, touching nothing live until everything new exists: a rule keeps
     * {@code previous}'s state when id, strategy, max-keys and store match (a changed store means state
     * elsewhere: a new limiter from the factory). Phase 1 creates the new limiters; phase 2 applies new limits to
     * the surviving ones and, if a limiter still refuses, puts back those already changed and fails the load;
     * phase 3 cannot fail (it also applies each surviving rule's {@code on-full}).
     */
    private List<Rule> build(List<RuleDraft> drafts, RuleSet previous) {
        int n = drafts.size();
        Rule[] olds = new Rule[n];
        RuleState[] states = new RuleState[n];
        for (int i = 0; i < n; i++) {
            RuleDraft draft = drafts.get(i);
            Rule old = previous == null ? null : previous.rule(draft.id());
            if (old != null && old.limiter().strategy() == draft.strategy() && old.maxKeys() == draft.maxKeys()
                    && old.store().equals(draft.store())) {
                olds[i] = old;
                states[i] = old.state();
                continue;
            }
            try {
                KeyedLimiter limiter = factory.create(draft.id(), draft.store(), draft.strategy(), draft.config(),
                        draft.maxKeys(), draft.onFull());
                states[i] = new RuleState(limiter, new RuleStats(), draft.strategy().name(), draft.maxKeys(),
                        draft.store());
            } catch (RuntimeException e) {
                problems.add(draft.limitAt(), "rule '" + draft.id() + "': its limiter could not be created: "
                        + reason(e));
            }
        }
        problems.throwIfAny();
        reconfigureAll(drafts, olds);
        List<Rule> rules = new ArrayList<>(n);
        for (int i = 0; i < n; i++) {
            RuleDraft draft = drafts.get(i);
            if (olds[i] != null) {
                olds[i].limiter().onFull(draft.onFull()); // kept state, the file's choice for new keys
                if (olds[i].fileMode() != draft.mode()) {
                    states[i].modeOverride(null); // the file changed the mode: the file wins
                }
            }
            rules.add(new Rule(draft.id(), i, draft.target(), draft.paths(), draft.patterns(), draft.methodBits(),
                    draft.httpMethods(), draft.classGlob(), draft.methodGlob(), draft.key(), draft.mode(),
                    draft.onError(), draft.throwClass(), states[i]));
        }
        return rules;
    }

    /**
     * Applies the new limits to every surviving limiter, or to none: validation already ran each strategy's
     * check, so only a limiter with limits of its own (a store's) can refuse here; then the limiters changed so
     * far get their previous configuration back and the load fails at the refusing rule's {@code limit:}.
     */
    private void reconfigureAll(List<RuleDraft> drafts, Rule[] olds) {
        List<KeyedLimiter> changed = new ArrayList<>();
        List<LimitConfig> before = new ArrayList<>();
        for (int i = 0; i < olds.length; i++) {
            if (olds[i] == null) {
                continue;
            }
            KeyedLimiter limiter = olds[i].limiter();
            LimitConfig old = limiter.config();
            LimitConfig next = drafts.get(i).config();
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
                problems.add(drafts.get(i).limitAt(), "rule '" + drafts.get(i).id() + "': its limiter refuses the"
                        + " new limits (" + reason(e) + "); no rule was changed");
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
