package dev.limiter.agent;

import static net.bytebuddy.matcher.ElementMatchers.nameStartsWith;

import dev.limiter.agent.jaxrs.ExceptionMapperInstrumentation;
import dev.limiter.agent.method.MethodInstrumentation;
import dev.limiter.agent.servlet.ServletInstrumentation;
import dev.limiter.agent.weave.LimiterTransformer;
import dev.limiter.rules.reload.RuleSetHolder;
import java.lang.instrument.Instrumentation;
import net.bytebuddy.ByteBuddy;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.agent.builder.ResettableClassFileTransformer;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.DynamicType;
import net.bytebuddy.dynamic.scaffold.TypeValidation;
import net.bytebuddy.matcher.ElementMatcher;
import net.bytebuddy.utility.JavaModule;

/**
 * Installs the agent's class file transformer: {@link LimiterTransformer} by default, or with
 * {@code -D}{@value #TRANSFORMER_PROPERTY}{@code =}{@value #AGENT_BUILDER} the Byte Buddy {@code AgentBuilder}
 * configuration it replaced (kept as a fallback for one release: same classes, same advice, about a second more
 * CPU at start-up, see docs/overhead.md). The rest of this comment describes the fallback.
 *
 * <p>The {@code AgentBuilder} is configured for a cheap start-up and a harmless failure mode.
 *
 * <p>Cheap: classes are ignored by name first ({@link IgnoredTypes}), each instrumentation checks that a
 * class loader has the library before any super-type walk, and type descriptions come only from a cached type
 * pool ({@code POOL_ONLY}), so matching never loads a class or runs application code. Harmless:
 * {@code disableClassFormatChanges()} + {@code RETRANSFORMATION} only rewrite method bodies (classes already
 * loaded, e.g. with a late attach, can be retransformed), and a failed transformation is logged (throttled)
 * and leaves the class unchanged. Already loaded classes are examined at installation only when some are
 * outside the ignored packages ({@link LoadedCandidates}): in premain there are none, so no retransformation
 * scan runs.
 *
 * <p>Three families of instrumentation: servlets and filters (every request), plain and JAX-RS resource
 * methods named by the current {@code method:} / {@code jaxrs:} rules ({@link MethodInstrumentation}, which
 * reads the rules at each class load, so retransforming after a reload picks up new rules), and the JAX-RS
 * {@code ExceptionMapper}s that must not rewrite our 429.
 */
final class Weaver {

    /** System property choosing the transformer. */
    static final String TRANSFORMER_PROPERTY = "limiter.transformer";
    /** Its value for Byte Buddy's {@code AgentBuilder}. */
    static final String AGENT_BUILDER = "agent-builder";

    private Weaver() {
    }

    /** True if {@code -Dlimiter.transformer=agent-builder} asks for the Byte Buddy {@code AgentBuilder}. */
    static boolean usesAgentBuilder() {
        return AGENT_BUILDER.equals(System.getProperty(TRANSFORMER_PROPERTY));
    }

    /** Servlets only (tests that need no rules). */
    static ResettableClassFileTransformer install(Instrumentation inst, ThrottledLog log) {
        return install(inst, null, log);
    }

    /**
     * Servlets, filters and JAX-RS exception mappers at once, and the methods the rules name once {@code rules}
     * have loaded (our own transformer only: the background load is never used with the fallback). Loaded
     * classes are retransformed only after a late attach ({@code attached}): in premain none can match.
     */
    static ResettableClassFileTransformer installWhileRulesLoad(Instrumentation inst, PendingRules rules,
            ThrottledLog log, boolean attached) {
        return LimiterTransformer.forRules(rules, log, Diagnostics.WOVEN_LISTENER).installOn(inst, attached);
    }

    /**
     * Servlets, the methods the rules in {@code holder} name and the JAX-RS exception mappers (neither if
     * {@code holder} is null).
     */
    static ResettableClassFileTransformer install(Instrumentation inst, RuleSetHolder holder, ThrottledLog log) {
        if (!usesAgentBuilder()) {
            return new LimiterTransformer(holder, log, Diagnostics.WOVEN_LISTENER).installOn(inst);
        }
        AgentBuilder builder = new AgentBuilder.Default(new ByteBuddy().with(TypeValidation.DISABLED))
                .disableClassFormatChanges()
                .with(AgentBuilder.RedefinitionStrategy.RETRANSFORMATION)
                .with(LoadedCandidates.INSTANCE)
                .with(AgentBuilder.DescriptionStrategy.Default.POOL_ONLY)
                .with(new WeakTypePoolCache())
                .with(AgentBuilder.TypeStrategy.Default.DECORATE)
                .with(new FailureListener(log))
                .ignore(ignoredPackages());
        builder = ServletInstrumentation.apply(builder, Weaver.class.getClassLoader());
        if (holder != null) {
            builder = MethodInstrumentation.apply(builder, holder);
            builder = ExceptionMapperInstrumentation.apply(builder, Weaver.class.getClassLoader());
        }
        return builder.installOn(inst);
    }

    private static ElementMatcher.Junction<TypeDescription> ignoredPackages() {
        ElementMatcher.Junction<TypeDescription> ignored = nameStartsWith(IgnoredTypes.PREFIXES[0]);
        for (int i = 1; i < IgnoredTypes.PREFIXES.length; i++) {
            ignored = ignored.or(nameStartsWith(IgnoredTypes.PREFIXES[i]));
        }
        return ignored;
    }

    /** Logs failed transformations; everything else Byte Buddy reports is ignored. */
    private static final class FailureListener extends AgentBuilder.Listener.Adapter {

        private final ThrottledLog log;

        FailureListener(ThrottledLog log) {
            this.log = log;
        }

        @Override
        public void onError(String typeName, ClassLoader classLoader, JavaModule module, boolean loaded,
                Throwable throwable) {
            log.warn("limiter: could not instrument " + typeName + "; it runs unlimited", throwable);
        }

        @Override
        public void onTransformation(TypeDescription typeDescription, ClassLoader classLoader, JavaModule module,
                boolean loaded, DynamicType dynamicType) {
            Diagnostics.woven(typeDescription.getName());
        }
    }
}
