package dev.limiter.agent.method;

import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.agent.diagnostics.UnloadedClasses;
import dev.limiter.rules.Rule;
import dev.limiter.rules.RuleSet;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Decides what the woven code of a class's methods carries: the methods {@link SitePlanner} picks, each
 * registered as a {@link WovenSite} with its own id, key argument and cost argument.
 *
 * <p>The plan is made from the rules in force when the class is (re)transformed, so a retransformation after a
 * reload picks up the new rules. Every site is registered in {@link WovenSites} before its code can run, and
 * the class's coverage is recorded for later reloads. The code itself is written by the weaver with ASM.
 */
public final class MethodSites {

    private MethodSites() {
    }

    /**
     * Registers the site of every method {@code rules} (the rules in force) and the class's {@code @Limit}
     * annotations ({@code declared}, null if none) plan in {@code type} (read by {@code shapes}, which sees the
     * class files of {@code loader}), and returns what each woven method carries (empty if none).
     */
    public static List<SiteToWeave> register(ClassShape type, ClassShapes shapes, ClassLoader loader,
            RuleSet rules, LimitDeclarations declared) {
        if (UnloadedClasses.any()) {
            classLoaded(type.name(), rules.methodRules());
            classLoaded(type.name(), rules.jaxrsRules());
        }
        List<PlannedSite> plan = SitePlanner.plan(type, rules, declared, shapes);
        Set<String> identities = new HashSet<>();
        List<SiteToWeave> sites = new ArrayList<>(plan.size());
        for (PlannedSite planned : plan) {
            WovenSite site = WovenSites.register(loader, type.name(), planned);
            if (planned.kind() == SiteKind.METHOD) {
                ThrowClassCheck.check(planned, type.name(), rules, shapes);
                if (planned.annotationId() != null) {
                    ThrowClassCheck.checkAnnotated(planned, type.name(), rules, shapes);
                }
            }
            sites.add(new SiteToWeave(planned.method().name(), planned.method().descriptor(),
                    site.id, planned.keyIndex(), planned.costIndex()));
            identities.add(planned.identity());
        }
        WovenSites.woven(loader, type.name(), identities);
        return sites;
    }

    /** A class the check found no rule's class for is being woven: the rules whose glob names it have one now. */
    private static void classLoaded(String className, List<Rule> candidates) {
        for (Rule rule : candidates) {
            if (UnloadedClasses.isUnloaded(rule.id()) && rule.classGlob().matches(className)) {
                UnloadedClasses.loaded(rule.id());
            }
        }
    }
}
