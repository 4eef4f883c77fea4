package dev.limiter.redis;

/**
 * What a check does when Redis cannot answer within the timeout (or the circuit is open because it could not
 * a moment ago).
 *
 * <p>Why a choice and not a fixed policy: a limit that protects a fragile back end must keep limiting (LOCAL: each
 * JVM enforces the rule on its own, so the cluster admits up to N times the limit), a limit that only shares a
 * quota fairly may let traffic through (ALLOW), and a hard quota that must never be exceeded fails closed
 * (REJECT).
 */
public enum OnFailure {
    /** Fall back to this JVM's own in-memory limiter with the same rule (the default). */
    LOCAL,
    /** Admit every request while Redis is unavailable. */
    ALLOW,
    /** Reject every request while Redis is unavailable. */
    REJECT;

    /** Parses {@code local}, {@code allow} or {@code reject} (any case); null if unknown. */
    public static OnFailure byName(String name) {
        if (name == null) {
            return null;
        }
        for (OnFailure f : values()) {
            if (f.name().equalsIgnoreCase(name.trim())) {
                return f;
            }
        }
        return null;
    }
}
