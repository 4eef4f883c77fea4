package dev.limiter.agent.method;

import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.classfile.MethodShape;
import dev.limiter.agent.jaxrs.JaxrsNamespace;
import dev.limiter.agent.jaxrs.JaxrsPathParams;
import dev.limiter.agent.jaxrs.JaxrsResourceMethods;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import dev.limiter.rules.key.KeySpec;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Decides, from one rules snapshot, which methods of a class get woven and which argument each passes as its
 * key. The transformer and the reload re-weaver ask the same question, so they cannot disagree.
 *
 * <p>Plain methods: methods declared in the class whose class and method names some {@code method:} rule
 * matches; never constructors, type initialisers, abstract or native methods, nor the compiler's bridge and
 * synthetic methods (a bridge calls the real method, which would count the call twice). The key argument is
 * the first {@code arg:N} of the matched rules that the method has; other rules of the same method keying on
 * another argument get a key failure ({@code on-error}), see docs/rules.md. The cost argument
 * ({@code cost: arg:N}) is chosen the same way, among arguments that can carry a cost.
 *
 * <p>JAX-RS: in classes some {@code jaxrs:} rule names and that are resource classes of one API (asked of
 * {@link JaxrsResourceMethods}), the resource methods declared there whose names a rule matches. The key
 * argument is the first {@code arg:N} or {@code path-param:NAME} of the matched rules that the method can supply
 * ({@link JaxrsPathParams}, which also follows JAX-RS annotation inheritance to the interface).
 */
final class SitePlanner {

    private SitePlanner() {
    }

    /** The methods of {@code type} to weave under {@code rules}; empty if none. */
    static List<PlannedSite> plan(ClassShape type, RuleSet rules, ClassShapes shapes) {
        return plan(type, rules, null, shapes);
    }

    /**
     * The methods of {@code type} to weave under {@code rules} and its {@code @Limit} annotations
     * ({@code declared}, null if none): a plain method is woven if a rule matches it or it (or, for a public
     * method, its class) is annotated; a method-level annotation wins over the class's. Other class files
     * (super types, parameter types) are read through {@code shapes}.
     */
    static List<PlannedSite> plan(ClassShape type, RuleSet rules, LimitDeclarations declared, ClassShapes shapes) {
        String className = type.name();
        List<PlannedSite> planned = new ArrayList<>();
        if (type.isInterface() || type.isAnnotation()) {
            return planned;
        }
        Rule[] buffer = new Rule[Math.max(1, rules.maxMethodMatches()) + 1];
        if (declared != null) {
            planAnnotated(type, rules, declared, buffer, planned, shapes);
        } else if (rules.namesMethodClass(className)) {
            for (MethodShape method : type.methods()) {
                if (!weavable(method)) {
                    continue;
                }
                int count = rules.matchMethod(className, method.name(), buffer);
                if (count > 0) {
                    planned.add(new PlannedSite(SiteKind.METHOD, method, argumentKey(method, buffer, count), null,
                            exceptionNames(method), null, costArgument(method, buffer, count, shapes)));
                }
            }
        }
        if (rules.namesJaxrsClass(className)) {
            JaxrsNamespace ns = JaxrsResourceMethods.namespaceOf(type, shapes);
            if (ns != null) {
                planJaxrs(type, rules, ns, buffer, planned, shapes);
            }
        }
        return planned;
    }

    private static void planAnnotated(ClassShape type, RuleSet rules, LimitDeclarations declared,
            Rule[] buffer, List<PlannedSite> planned, ClassShapes shapes) {
        String className = type.name();
        boolean named = rules.namesMethodClass(className);
        for (MethodShape method : type.methods()) {
            if (!weavable(method)) {
                continue;
            }
            Map<String, Object> values = declared.onMethod(method.name(), method.descriptor());
            if (values == null && method.isPublic()) {
                values = declared.onClass();
            }
            AnnotatedRules.Declared annotation = values == null ? null
                    : AnnotatedRules.declare(className, method.name(), values);
            int count = named ? rules.matchMethod(className, method.name(), buffer) : 0;
            Rule effective = annotation == null ? null : AnnotatedRules.effective(rules, annotation.id());
            if (effective != null) {
                buffer[count++] = effective;
            }
            if (count > 0) {
                planned.add(new PlannedSite(SiteKind.METHOD, method, argumentKey(method, buffer, count), null,
                        exceptionNames(method), annotation == null ? null : annotation.id(),
                        costArgument(method, buffer, count, shapes)));
            }
        }
    }

    private static void planJaxrs(ClassShape type, RuleSet rules, JaxrsNamespace ns, Rule[] buffer,
            List<PlannedSite> planned, ClassShapes shapes) {
        String className = type.name();
        for (MethodShape method : type.methods()) {
            int count = rules.matchJaxrs(className, method.name(), buffer);
            if (count == 0 || !JaxrsResourceMethods.isResourceMethod(type, method, ns, shapes)) {
                continue;
            }
            int keyIndex = -1;
            String keyName = null;
            int parameters = method.parameterCount();
            for (int i = 0; i < count && keyIndex < 0; i++) {
                KeySpec key = buffer[i].key();
                if (key.kind() == KeySpec.Kind.ARG && key.index() < parameters) {
                    keyIndex = key.index();
                } else if (key.kind() == KeySpec.Kind.PATH_PARAM) {
                    keyIndex = JaxrsPathParams.parameterIndex(type, method, ns, key.name(), shapes);
                    keyName = keyIndex < 0 ? null : key.name();
                }
            }
            planned.add(new PlannedSite(SiteKind.of(ns), method, keyIndex, keyName, exceptionNames(method), null,
                    costArgument(method, buffer, count, shapes)));
        }
    }

    static boolean weavable(MethodShape method) {
        return method.isMethod() && !method.isAbstract() && !method.isNative() && !method.isBridge()
                && !method.isSynthetic();
    }

    /** The first {@code arg:N} among the matched rules that {@code method} has an argument for, or -1. */
    static int argumentKey(MethodShape method, Rule[] matched, int count) {
        int parameters = method.parameterCount();
        for (int i = 0; i < count; i++) {
            KeySpec key = matched[i].key();
            if (key.kind() == KeySpec.Kind.ARG && key.index() < parameters) {
                return key.index();
            }
        }
        return -1;
    }

    /**
     * The first {@code cost: arg:N} among the matched rules for which {@code method} has an integer, array or
     * collection argument N, or -1; the other rules reading their cost from an argument fail ({@link SiteRules}).
     */
    static int costArgument(MethodShape method, Rule[] matched, int count, ClassShapes shapes) {
        int parameters = method.parameterCount();
        for (int i = 0; i < count; i++) {
            int index = matched[i].policy().costArgument();
            if (index >= 0 && index < parameters && CostParameter.carriesCost(method.parameterType(index), shapes)) {
                return index;
            }
        }
        return -1;
    }

    static String[] exceptionNames(MethodShape method) {
        return method.exceptions().toArray(new String[0]);
    }
}
