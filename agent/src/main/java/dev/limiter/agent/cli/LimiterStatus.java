package dev.limiter.agent.cli;

import java.util.List;

/**
 * Everything {@code limiter status} shows about one JVM, read once from its {@code dev.limiter} MBeans: a plain
 * value, so the text screen and the JSON document render the same reading and are tested without a JVM.
 *
 * @param lastReloadTime  ISO-8601 instant of the last load attempt; empty if none
 * @param lastReloadError why the last load attempt failed ({@code file:line:col: message} lines); empty if it
 *                        succeeded
 * @param reweaving       {@code in force}, or {@code pending since <instant>} while loaded classes are re-woven for
 *                        a reload's method rules; empty from an agent that does not report it
 * @param lastReweave     when the last reload's method rules came in force; empty if none did
 * @param rules           in the rules file's order when the agent reports it, else by id
 * @param store           null when the agent registered no store MBean
 */
record LimiterStatus(long pid, String version, String rulesFile, boolean enabled, int ruleCount, long reloads,
        long failedReloads, String lastReloadTime, String lastReloadError, long wovenTypes, long internalErrors,
        String reweaving, String lastReweave, List<RuleStatus> rules, StoreStatus store) {

    LimiterStatus {
        rules = List.copyOf(rules);
    }

    /** True while a reload's method rules wait for loaded classes to be re-woven. */
    boolean reweavingPending() {
        return reweaving.startsWith("pending");
    }

    /** True when the last load attempt was refused (the rules in force are older than the file). */
    boolean lastReloadFailed() {
        return !lastReloadError.isEmpty();
    }
}
