package dev.limiter.agent.diagnostics;

import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The {@code method:} and {@code jaxrs:} rules whose class glob matched no loaded class when last checked
 * (a while after start and after each reload): such a rule is in force but can never limit anything until that
 * class loads, most often because its name is misspelt. Read by JMX ({@code RuleMXBean.NoClassLoaded}).
 */
public final class UnloadedClasses {

    private static final Set<String> RULE_IDS = ConcurrentHashMap.newKeySet();

    private UnloadedClasses() {
    }

    /** True if rule {@code id}'s class glob matched no loaded class at the last check. */
    public static boolean isUnloaded(String id) {
        return RULE_IDS.contains(id);
    }

    /** Replaces the rules found so at a check. */
    public static void found(Set<String> ids) {
        RULE_IDS.retainAll(ids);
        RULE_IDS.addAll(ids);
    }
}
