package dev.limiter.agent.jaxrs;

import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isBridge;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.isStatic;
import static net.bytebuddy.matcher.ElementMatchers.isSubTypeOf;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.limiter.agent.ClassLoaderHasResource;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Weaves {@link ExceptionMapperAdvice} into {@code toResponse} of every class implementing
 * {@code javax.ws.rs.ext.ExceptionMapper} or {@code jakarta.ws.rs.ext.ExceptionMapper}.
 *
 * <p>Needed because a runtime may hand our {@code WebApplicationException} to an application mapper (the spec
 * says not to when the response has an entity, which ours always has; older or lenient runtimes, and mappers
 * called by application code, may still do it). Only loaders that can see the API's {@code ExceptionMapper}
 * are considered, before any super-type walk. Bridge methods are skipped: {@code toResponse(Throwable)} of an
 * {@code ExceptionMapper<MyException>} just calls the typed method, which is woven.
 */
public final class ExceptionMapperInstrumentation {

    /** The advice class, by name. */
    public static final String ADVICE = "dev.limiter.agent.jaxrs.ExceptionMapperAdvice";

    private static final ClassLoaderHasResource[] LOADER_CHECKS = new ClassLoaderHasResource[] {
        new ClassLoaderHasResource(JaxrsNamespace.JAVAX.resource("ext.ExceptionMapper")),
        new ClassLoaderHasResource(JaxrsNamespace.JAKARTA.resource("ext.ExceptionMapper")),
    };

    private ExceptionMapperInstrumentation() {
    }

    /** Adds the javax and jakarta mapper transformations to {@code builder}. */
    public static AgentBuilder apply(AgentBuilder builder, ClassLoader agentLoader) {
        AgentBuilder result = builder;
        for (JaxrsNamespace ns : JaxrsNamespace.values()) {
            result = apply(result, ns, agentLoader);
        }
        return result;
    }

    static AgentBuilder apply(AgentBuilder builder, JaxrsNamespace ns, ClassLoader agentLoader) {
        return builder
                .type(mappers(ns), LOADER_CHECKS[ns.ordinal()])
                .transform(new AgentBuilder.Transformer.ForAdvice()
                        .include(agentLoader)
                        .advice(toResponse(), ADVICE));
    }

    /** Concrete classes implementing the namespace's {@code ExceptionMapper}. */
    static ElementMatcher.Junction<TypeDescription> mappers(JaxrsNamespace ns) {
        return not(isInterface()).and(hasSuperType(named(ns.type("ext.ExceptionMapper"))));
    }

    /** {@code toResponse(E)} with {@code E} a {@code Throwable}: the method the runtime calls. */
    public static ElementMatcher.Junction<MethodDescription> toResponse() {
        return named("toResponse")
                .and(takesArguments(1))
                .and(takesArgument(0, isSubTypeOf(Throwable.class)))
                .and(not(isStatic()))
                .and(not(isAbstract()))
                .and(not(isBridge()));
    }
}
