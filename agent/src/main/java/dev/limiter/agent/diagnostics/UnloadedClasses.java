package dev.limiter.agent.diagnostics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code method:} and {@code jaxrs:} rules whose class glob matched no loaded class when last checked
 * (a while after start and after each reload): such a rule is in force but can never limit anything until that
 * class loads, most often because its name is misspelt. Read by JMX ({@code RuleMXBean.NoClassLoaded}) and
 * {@code limiter status}; a rule leaves the set when the check finds its class, or at once when a class it names
 * is woven.
 */
public final class UnloadedClasses {

    private static final Set<String> RULE_IDS = ConcurrentHashMap.newKeySet();

    private UnloadedClasses() {
    }

    /** True if rule {@code id}'s class glob matched no loaded class at the last check. */
    public static boolean isUnloaded(String id) {
        return RULE_IDS.contains(id);
    }

    /** True if some rule is in the set (a class being woven need not look further otherwise). */
    public static boolean any() {
        return !RULE_IDS.isEmpty();
    }

    /** Rule {@code id}'s class has loaded: it leaves the set. */
    public static void loaded(String id) {
        RULE_IDS.remove(id);
    }

    /** Replaces the rules found so at a check. */
    public static void found(Set<String> ids) {
        RULE_IDS.retainAll(ids);
        RULE_IDS.addAll(ids);
    }
}
