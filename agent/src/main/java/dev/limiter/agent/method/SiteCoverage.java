package dev.limiter.agent.method;

import dev.limiter.agent.classfile.ClassShape;
import dev.limiter.agent.classfile.ClassShapes;
import dev.limiter.rules.RuleSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Whether a loaded class's woven code covers every method site (method and key argument) the current rules
 * plan in it: if not, the class must be retransformed after a reload. Judged from the class file its loader
 * has (which loads nothing) against what its last transformation registered in {@link WovenSites}; a class whose
 * class file cannot be read is retransformed (the transformer then plans from the bytes the JVM has).
 */
public final class SiteCoverage {

    private SiteCoverage() {
    }

    /** True if {@code rules} plan a site in {@code type} that its woven code lacks. */
    public static boolean isStale(Class<?> type, RuleSet rules) {
        ClassShapes shapes = new ClassShapes(type.getClassLoader());
        ClassShape shape = shapes.find(type.getName());
        if (shape == null) {
            return true;
        }
        List<PlannedSite> plan = SitePlanner.plan(shape, rules, shapes);
        Set<String> needed = new HashSet<>();
        for (PlannedSite site : plan) {
            needed.add(site.identity());
        }
        return !WovenSites.covers(type.getClassLoader(), type.getName(), needed);
    }
}
