package dev.limiter.agent.method;

import dev.limiter.rules.RuleSet;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import net.bytebuddy.description.type.TypeDescription;

/**
 * Whether a loaded class's woven code covers every method site (method and key argument) the current rules
 * plan in it: if not, the class must be retransformed after a reload. Judged from the loaded class by reflection
 * (which loads nothing) against what its last transformation registered in {@link WovenSites}.
 */
public final class SiteCoverage {

    private SiteCoverage() {
    }

    /** True if {@code rules} plan a site in {@code type} that its woven code lacks. */
    public static boolean isStale(Class<?> type, RuleSet rules) {
        List<PlannedSite> plan = SitePlanner.plan(TypeDescription.ForLoadedType.of(type), rules);
        Set<String> needed = new HashSet<>();
        for (PlannedSite site : plan) {
            needed.add(site.identity());
        }
        return !WovenSites.covers(type.getClassLoader(), type.getName(), needed);
    }
}
