package dev.limiter.agent.method;

import dev.limiter.rules.RuleSet;
import dev.limiter.rules.reload.RuleSetHolder;
import java.security.ProtectionDomain;
import net.bytebuddy.agent.builder.AgentBuilder;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.utility.JavaModule;

/**
 * Adds the weaving of plain methods and JAX-RS resource methods to the agent's transformer.
 *
 * <p>The type test is by name against the rules in force ({@link RuleSet#namesMethodClass},
 * {@link RuleSet#namesJaxrsClass}): one volatile read and a few {@code startsWith} per loaded class, and no
 * class file is parsed unless some rule names the class. Application classes are never on an ignore list: any
 * class a rule names can be woven. Which methods, and with which key argument, is {@link SitePlanner}'s call.
 */
public final class MethodInstrumentation {

    private MethodInstrumentation() {
    }

    /** Adds the method transformation to {@code builder}; it reads the rules from {@code holder} each time. */
    public static AgentBuilder apply(AgentBuilder builder, RuleSetHolder holder) {
        return builder.type(new NamedByRules(holder)).transform(new MethodTransformer(holder));
    }

    /** True for classes some current {@code method:} or {@code jaxrs:} rule names (names only). */
    static final class NamedByRules implements AgentBuilder.RawMatcher {

        private final RuleSetHolder holder;

        NamedByRules(RuleSetHolder holder) {
            this.holder = holder;
        }

        @Override
        public boolean matches(TypeDescription type, ClassLoader loader, JavaModule module, Class<?> redefined,
                ProtectionDomain domain) {
            RuleSet rules = holder.current();
            String name = type.getName();
            return rules.namesMethodClass(name) || rules.namesJaxrsClass(name);
        }
    }
}
