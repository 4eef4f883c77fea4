package dev.limiter.agent.servlet;

import static net.bytebuddy.matcher.ElementMatchers.isAbstract;
import static net.bytebuddy.matcher.ElementMatchers.isInterface;
import static net.bytebuddy.matcher.ElementMatchers.isPublic;
import static net.bytebuddy.matcher.ElementMatchers.hasSuperType;
import static net.bytebuddy.matcher.ElementMatchers.named;
import static net.bytebuddy.matcher.ElementMatchers.namedOneOf;
import static net.bytebuddy.matcher.ElementMatchers.not;
import static net.bytebuddy.matcher.ElementMatchers.takesArgument;
import static net.bytebuddy.matcher.ElementMatchers.takesArguments;

import dev.limiter.agent.ClassLoaderHasResource;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.matcher.ElementMatcher;

/**
 * Weaves {@link ServletAdvice} into every servlet and filter of one servlet namespace.
 *
 * <p>Types: anything implementing {@code Servlet} or {@code Filter}, but only in class loaders that can see the
 * API at all (cheap check first). Methods: the public {@code service(ServletRequest, ServletResponse)} and
 * {@code doFilter(ServletRequest, ServletResponse, FilterChain)}, the two ways a container hands a request to
 * application code. {@code HttpServlet}'s protected {@code service(HttpServletRequest, ...)} is not woven, so a
 * servlet counts once; filters and servlets behind one another are de-duplicated by the bridge's depth guard.
 */
public final class ServletInstrumentation {

    /** The advice class, by name: it must be read as a class file, never loaded into the agent's loader twice. */
    public static final String ADVICE = "dev.limiter.agent.servlet.ServletAdvice";

    private ServletInstrumentation() {
    }

    /** Adds the javax and jakarta servlet transformations to {@code builder}. */
    public static AgentBuilder apply(AgentBuilder builder, ClassLoader agentLoader) {
        AgentBuilder result = builder;
        for (ServletNamespace ns : ServletNamespace.values()) {
            result = apply(result, ns, agentLoader);
        }
        return result;
    }

    static AgentBuilder apply(AgentBuilder builder, ServletNamespace ns, ClassLoader agentLoader) {
        return builder
                .type(not(isInterface()).and(hasSuperType(namedOneOf(ns.type("Filter"), ns.type("Servlet")))),
                        new ClassLoaderHasResource(ns.resource("Servlet")))
                .transform(new AgentBuilder.Transformer.ForAdvice()
                        .include(agentLoader)
                        .advice(methods(ns), ADVICE));
    }

    /** The woven methods of jakarta ({@code true}) or javax servlets and filters. */
    public static ElementMatcher.Junction<MethodDescription> methods(boolean jakarta) {
        return methods(jakarta ? ServletNamespace.JAKARTA : ServletNamespace.JAVAX);
    }

    static ElementMatcher.Junction<MethodDescription> methods(ServletNamespace ns) {
        return namedOneOf("doFilter", "service")
                .and(isPublic())
                .and(not(isAbstract()))
                .and(takesArguments(2).or(takesArguments(3)))
                .and(takesArgument(0, named(ns.type("ServletRequest"))))
                .and(takesArgument(1, named(ns.type("ServletResponse"))));
    }
}
