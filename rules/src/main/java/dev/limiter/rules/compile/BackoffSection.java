package dev.limiter.rules.compile;

import dev.limiter.rules.Rule;
import dev.limiter.rules.yaml.Fields;
import dev.limiter.rules.yaml.Problems;

/**
 * Validates {@code honor-retry-after} and {@code max-backoff}: whether a {@code 429} or {@code 503} answer with
 * {@code Retry-After} pauses the key of an {@code http-client:} rule, and for how long at most (default
 * {@link #DEFAULT_MAX_BACKOFF_MILLIS}). Refused on every other kind: the agent does not read the answers of the
 * requests it serves.
 */
final class BackoffSection {

    static final String HONOR = "honor-retry-after";
    static final String MAX = "max-backoff";
    /** The cap of a pause when {@code max-backoff} is not given: a minute. */
    static final long DEFAULT_MAX_BACKOFF_MILLIS = 60_000;
    /** The largest {@code max-backoff}: an hour. */
    static final long MAX_BACKOFF_MILLIS = 3_600_000;

    private BackoffSection() {
    }

    /**
     * The longest pause in nanoseconds, 0 if {@code Retry-After} is not honoured, or -1 after recording a problem.
     * {@code target} may be null (an invalid match, reported already).
     */
    static long read(Fields rule, Rule.Target target, Problems problems) {
        if (!rule.has(HONOR) && !rule.has(MAX)) {
            return 0;
        }
        if (target != null && target != Rule.Target.HTTP_CLIENT) {
            String key = rule.has(HONOR) ? HONOR : MAX;
            problems.add(rule.get(key), key + " applies to http-client rules only: it reads the answer of a call"
                    + " the service makes; the answers of the requests the service serves are its own");
            return -1;
        }
        Boolean honor = rule.has(HONOR) ? rule.bool(HONOR, null) : Boolean.FALSE;
        if (honor == null) {
            return -1;
        }
        if (!honor) {
            if (rule.has(MAX)) {
                problems.add(rule.get(MAX), MAX + " applies only with '" + HONOR + ": true'");
                return -1;
            }
            return 0;
        }
        long millis = DEFAULT_MAX_BACKOFF_MILLIS;
        if (rule.has(MAX)) {
            String text = rule.string(MAX);
            if (text == null) {
                return -1;
            }
            millis = Durations.millis(text);
            if (millis <= 0 || millis > MAX_BACKOFF_MILLIS) {
                problems.add(rule.get(MAX), MAX + " must be a duration from 1ms to 1h (e.g. '30s', '5m'), not '"
                        + Fields.shorten(text) + "'");
                return -1;
            }
        }
        return millis * 1_000_000L;
    }
}
