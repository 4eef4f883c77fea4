package dev.limiter.agent;

import dev.limiter.agent.weave.LimiterTransformer;
import dev.limiter.rules.RuleSetHolder;
import java.lang.instrument.Instrumentation;

/**
 * Installs the agent's class file transformer ({@link LimiterTransformer}): servlets, filters and JAX-RS
 * exception mappers (every request), and the plain and JAX-RS resource methods the {@code method:} /
 * {@code jaxrs:} rules name, read at each class load so retransforming after a reload picks up new rules.
 */
final class Weaver {

    private Weaver() {
    }

    /** Servlets only (tests that need no rules). */
    static LimiterTransformer install(Instrumentation inst, ThrottledLog log) {
        return install(inst, null, log);
    }

    /**
     * Servlets, filters and JAX-RS exception mappers at once, and the methods the rules name once {@code rules}
     * have loaded. Loaded classes are retransformed only after a late attach ({@code attached}): in premain none
     * can match.
     */
    static LimiterTransformer installWhileRulesLoad(Instrumentation inst, PendingRules rules, ThrottledLog log,
            boolean attached) {
        return LimiterTransformer.forRules(rules, log, Diagnostics.WOVEN_LISTENER).installOn(inst, attached);
    }

    /**
     * Servlets, the methods the rules in {@code holder} name and the JAX-RS exception mappers (neither if
     * {@code holder} is null).
     */
    static LimiterTransformer install(Instrumentation inst, RuleSetHolder holder, ThrottledLog log) {
        return new LimiterTransformer(holder, log, Diagnostics.WOVEN_LISTENER).installOn(inst);
    }
}
