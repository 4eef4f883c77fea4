package dev.limiter.agent.architecture;

import static org.assertj.core.api.Assertions.assertThat;

import dev.limiter.agent.LimiterAgent;
import dev.limiter.agent.entry.EntryPoint;
import dev.limiter.agent.registry.EntryPoints;
import dev.limiter.bootstrap.LimiterBridge;
import dev.limiter.core.Outcome;
import dev.limiter.redis.RedisStore;
import dev.limiter.rules.RuleSet;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * The shape of the code, checked on the compiled classes: no package of any module depends on itself through
 * others, the agent's root package holds only its entry, and the request path's packages stay below the ones
 * that wire and watch it.
 */
class PackageCyclesTest {

    private static final PackageGraph AGENT = PackageGraph.ofModuleOf(LimiterAgent.class);

    @Test
    void noModuleHasAPackageCycle() {
        for (Class<?> module : new Class<?>[] {LimiterBridge.class, Outcome.class, RuleSet.class, RedisStore.class,
                LimiterAgent.class}) {
            PackageGraph graph = PackageGraph.ofModuleOf(module);
            assertThat(graph.edges).as("classes found for %s", module).isNotEmpty();
            assertThat(graph.cycles()).as("package cycles in the module of %s", module.getName()).isEmpty();
        }
    }

    @Test
    void theAgentsRootPackageHoldsOnlyTheEntryAndNothingDependsOnIt() {
        assertThat(AGENT.classes.get("dev.limiter.agent")).containsExactlyInAnyOrder("LimiterAgent",
                "LimiterAgent$DefinerLoader", "AgentEntry");
        AGENT.edges.forEach((pkg, targets) -> assertThat(targets).as("%s depends on", pkg)
                .doesNotContain("dev.limiter.agent"));
    }

    /**
     * premain loads it alone, in a loader that sees the JDK only, before any other class of ours exists: it names
     * the two packages it defines (as text) and nothing else of ours.
     */
    @Test
    void theBootDefinerNamesNoOtherPackageOfOurs() {
        assertThat(AGENT.edges.getOrDefault("dev.limiter.agent.boot", Set.of()))
                .isSubsetOf("dev.limiter.bootstrap", "dev.limiter.api");
    }

    @Test
    void theDecisionDependsOnNoAdapterAndNothingThatWiresOrWatchesIt() {
        Set<String> above = new TreeSet<>(adapterPackages());
        above.addAll(Set.of("dev.limiter.agent.method", "dev.limiter.agent.jmx", "dev.limiter.agent.startup",
                "dev.limiter.agent.weave", "dev.limiter.agent.store", "dev.limiter.agent.cli",
                "dev.limiter.agent.registry", "dev.limiter.agent.entry"));
        for (String pkg : above) {
            assertThat(AGENT.reaches("dev.limiter.agent.decision", pkg)).as("decision reaches %s", pkg).isFalse();
            assertThat(AGENT.reaches("dev.limiter.agent.http", pkg)).as("the HTTP gate reaches %s", pkg).isFalse();
        }
        assertThat(AGENT.reaches("dev.limiter.agent.method", "dev.limiter.agent.servlet"))
                .as("woven methods read request keys through the decision's RequestKeys").isFalse();
    }

    @Test
    void noEntryPointReachesAnotherOrTheWeaver() {
        Set<String> adapters = adapterPackages();
        assertThat(adapters).as("registered entry points").hasSize(EntryPoints.ALL.length);
        for (String adapter : adapters) {
            for (String other : adapters) {
                if (!other.equals(adapter)) {
                    assertThat(AGENT.reaches(adapter, other)).as("%s reaches %s", adapter, other).isFalse();
                }
            }
            assertThat(AGENT.reaches(adapter, "dev.limiter.agent.weave")).as("%s reaches weave", adapter).isFalse();
            assertThat(AGENT.reaches(adapter, "dev.limiter.agent.startup")).as("%s reaches startup", adapter)
                    .isFalse();
        }
    }

    /** The package of every registered entry point: the adapters. */
    private static Set<String> adapterPackages() {
        Set<String> packages = new TreeSet<>();
        for (EntryPoint entry : EntryPoints.ALL) {
            packages.add(entry.getClass().getPackageName());
        }
        return packages;
    }

    @Test
    void theGraphSeesACycleWhenThereIsOne() {
        PackageGraph graph = new PackageGraph();
        graph.edges.put("a", Set.of("b"));
        graph.edges.put("b", Set.of("c"));
        graph.edges.put("c", Set.of("a"));
        graph.edges.put("d", Set.of("a"));
        assertThat(graph.cycles()).containsExactly(Set.of("a", "b", "c"));
    }
}
