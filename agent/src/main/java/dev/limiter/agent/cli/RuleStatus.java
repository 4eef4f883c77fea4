package dev.limiter.agent.cli;

import java.util.List;

/**
 * One rule as {@code dev.limiter:type=Rule,name=<id>} shows it. Numbers the MBean did not report (an agent of an
 * older version) are {@link #UNKNOWN}; texts it did not report are empty.
 *
 * @param windowMillis the window; 0 for strategies without one
 * @param mode         the mode in force ({@code enforce}, {@code dry-run})
 * @param fileMode     the mode the rules file gives; differs from {@code mode} after {@code limiter mode}
 * @param noClassLoaded a {@code method:} or {@code jaxrs:} rule whose class glob matched no loaded class at the
 *                      agent's last check (false from an agent that does not report it)
 * @param adaptiveLimit the limit an {@code adaptive} rule found for its global key ({@code limit} is its
 *                      ceiling); {@link #UNKNOWN} for other rules
 */
record RuleStatus(String id, String match, String key, String strategy, long limit, long windowMillis,
        long capacity, String mode, String fileMode, long allowed, long rejected, long wouldReject, long errors,
        long activeKeys, long keysRefused, boolean noClassLoaded, List<TopKey> topRejectedKeys, long adaptiveLimit) {

    static final long UNKNOWN = -1;

    RuleStatus {
        topRejectedKeys = List.copyOf(topRejectedKeys);
    }

    /** A rule that is not adaptive. */
    RuleStatus(String id, String match, String key, String strategy, long limit, long windowMillis, long capacity,
            String mode, String fileMode, long allowed, long rejected, long wouldReject, long errors,
            long activeKeys, long keysRefused, boolean noClassLoaded, List<TopKey> topRejectedKeys) {
        this(id, match, key, strategy, limit, windowMillis, capacity, mode, fileMode, allowed, rejected, wouldReject,
                errors, activeKeys, keysRefused, noClassLoaded, topRejectedKeys, UNKNOWN);
    }

    /** True when the mode was switched at run time and no longer is the file's. */
    boolean modeOverridden() {
        return !fileMode.isEmpty() && !mode.isEmpty() && !fileMode.equals(mode);
    }
}
