package dev.limiter.agent.method;

import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;

/**
 * Checks, when a plain method is woven, that the {@code throw:} class of each of its rules can be thrown there,
 * so a mistake in the rules file shows in the log as the class loads rather than on the first rejection.
 *
 * <p>It reads class files of the woven class's loader ({@link ClassShapes}) instead of loading classes: loading
 * application classes from inside a class-file transformer can deadlock or run static initialisers. The checks
 * are those {@link ThrowableFactory} applies at run time, which stays the authority (and reports the same
 * problem only once).
 */
final class ThrowClassCheck {

    private ThrowClassCheck() {
    }

    static void check(PlannedSite plan, String className, RuleSet rules, ClassShapes shapes) {
        Rule[] matched = new Rule[Math.max(1, rules.maxMethodMatches())];
        int count = rules.matchMethod(className, plan.method().name(), matched);
        for (int i = 0; i < count; i++) {
            String name = matched[i].throwClass();
            if (Rule.DEFAULT_THROW.equals(name)) {
                continue;
            }
            String problem;
            try {
                problem = problem(shapes, name, plan.method(), className);
            } catch (Throwable t) {
                problem = "it cannot be read (" + t + ")";
            }
            if (problem != null) {
                ThrowableFactory.report(matched[i].id(), name, problem, null);
            }
        }
    }

    /** The same check for the rule in force for the method's annotation, unless a file glob matched it too. */
    static void checkAnnotated(PlannedSite plan, String className, RuleSet rules, ClassShapes shapes) {
        Rule rule = AnnotatedRules.effective(rules, plan.annotationId());
        if (rule == null || Rule.DEFAULT_THROW.equals(rule.throwClass())
                || rule.matches(className, plan.method().name())) {
            return;
        }
        String problem;
        try {
            problem = problem(shapes, rule.throwClass(), plan.method(), className);
        } catch (Throwable t) {
            problem = "it cannot be read (" + t + ")";
        }
        if (problem != null) {
            ThrowableFactory.report(rule.id(), rule.throwClass(), problem, null);
        }
    }

    private static String problem(ClassShapes shapes, String name, MethodShape method, String className) {
        ClassShape type = shapes.find(name);
        if (type == null) {
            return "it cannot be loaded by the class loader of " + className;
        }
        if (!shapes.isSubtypeOf(name, "java.lang.Throwable")) {
            return "it is not a Throwable";
        }
        if (type.isAbstract() || type.isInterface() || !type.isPublic()) {
            return "it is not a public concrete class";
        }
        boolean constructor = false;
        for (MethodShape candidate : type.methods()) {
            if (candidate.isConstructor() && candidate.isPublic() && (candidate.descriptor().equals("()V")
                    || candidate.descriptor().equals("(Ljava/lang/String;)V"))) {
                constructor = true;
            }
        }
        if (!constructor) {
            return "it has no public (String) or no-argument constructor";
        }
        if (shapes.isSubtypeOf(name, "java.lang.RuntimeException") || shapes.isSubtypeOf(name, "java.lang.Error")) {
            return null;
        }
        for (String declared : method.exceptions()) {
            if (shapes.isSubtypeOf(name, declared)) {
                return null;
            }
        }
        return "it is a checked exception that " + className + "#" + method.name() + " does not declare";
    }
}
