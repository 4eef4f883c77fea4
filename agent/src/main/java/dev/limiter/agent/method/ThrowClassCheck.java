package dev.limiter.agent.method;

import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import net.bytebuddy.description.method.MethodDescription;
import net.bytebuddy.description.type.TypeDefinition;
import net.bytebuddy.description.type.TypeDescription;
import net.bytebuddy.dynamic.ClassFileLocator;
import net.bytebuddy.pool.TypePool;

/**
 * Checks, when a plain method is woven, that the {@code throw:} class of each of its rules can be thrown there,
 * so a mistake in the rules file shows in the log as the class loads rather than on the first rejection.
 *
 * <p>It reads class files through a type pool over the woven class's loader instead of loading classes: loading
 * application classes from inside a class-file transformer can deadlock or run static initialisers. The checks
 * are those {@link ThrowableFactory} applies at run time, which stays the authority (and reports the same
 * problem only once).
 */
final class ThrowClassCheck {

    private ThrowClassCheck() {
    }

    static void check(PlannedSite plan, String className, RuleSet rules, ClassLoader loader) {
        Rule[] matched = new Rule[Math.max(1, rules.maxMethodMatches())];
        int count = rules.matchMethod(className, plan.method().getName(), matched);
        TypePool pool = null;
        for (int i = 0; i < count; i++) {
            String name = matched[i].throwClass();
            if (Rule.DEFAULT_THROW.equals(name)) {
                continue;
            }
            if (pool == null) {
                pool = TypePool.Default.of(ClassFileLocator.ForClassLoader.of(loader));
            }
            String problem;
            try {
                problem = problem(pool, name, plan.method(), className);
            } catch (Throwable t) {
                problem = "it cannot be read (" + t + ")";
            }
            if (problem != null) {
                ThrowableFactory.report(matched[i].id(), name, problem, null);
            }
        }
    }

    /** The same check for the rule in force for the method's annotation, unless a file glob matched it too. */
    static void checkAnnotated(PlannedSite plan, String className, RuleSet rules, ClassLoader loader) {
        Rule rule = AnnotatedRules.effective(rules, plan.annotationId());
        if (rule == null || Rule.DEFAULT_THROW.equals(rule.throwClass())
                || rule.matches(className, plan.method().getName())) {
            return;
        }
        String problem;
        try {
            problem = problem(TypePool.Default.of(ClassFileLocator.ForClassLoader.of(loader)), rule.throwClass(),
                    plan.method(), className);
        } catch (Throwable t) {
            problem = "it cannot be read (" + t + ")";
        }
        if (problem != null) {
            ThrowableFactory.report(rule.id(), rule.throwClass(), problem, null);
        }
    }

    private static String problem(TypePool pool, String name, MethodDescription method, String className) {
        TypePool.Resolution resolution = pool.describe(name);
        if (!resolution.isResolved()) {
            return "it cannot be loaded by the class loader of " + className;
        }
        TypeDescription type = resolution.resolve();
        if (!type.isAssignableTo(Throwable.class)) {
            return "it is not a Throwable";
        }
        if (type.isAbstract() || !type.isPublic()) {
            return "it is not a public concrete class";
        }
        boolean constructor = false;
        for (MethodDescription.InDefinedShape candidate : type.getDeclaredMethods()) {
            if (candidate.isConstructor() && candidate.isPublic() && (candidate.getParameters().isEmpty()
                    || (candidate.getParameters().size() == 1
                    && candidate.getParameters().get(0).getType().asErasure().represents(String.class)))) {
                constructor = true;
            }
        }
        if (!constructor) {
            return "it has no public (String) or no-argument constructor";
        }
        if (type.isAssignableTo(RuntimeException.class) || type.isAssignableTo(Error.class)) {
            return null;
        }
        for (TypeDefinition declared : method.getExceptionTypes()) {
            if (type.isAssignableTo(declared.asErasure())) {
                return null;
            }
        }
        return "it is a checked exception that " + className + "#" + method.getName() + " does not declare";
    }
}
