package dev.limiter.core;

/**
 * What a keyed limiter does with a new key when it already holds its most keys and none of them is idle (every
 * key holds state that differs from a fresh key's: a spent or partly spent budget, calls in flight).
 *
 * <p>Idle keys (an expired window, a full bucket, nothing in flight) are always evicted first, whatever the
 * choice: dropping one changes no decision, since the key would start from the same full budget anyway. The
 * choice matters only once every slot holds live state, and then any eviction resets some key's budget. A
 * flood of fresh keys (random API keys, rotating IPv6 addresses) can cause exactly that, so the choice is
 * explicit.
 *
 * <p>Keys with calls in flight on a bulkhead ({@code concurrency}) are never evicted and a permit taken without
 * state could not be given back exactly, so a bulkhead refuses the new key under every choice.
 */
public enum OnFull {

    /**
     * Refuse the new key's request (fail closed): a throttled key stays throttled under any flood of new keys;
     * a legitimate new client is refused only while every slot holds live state.
     */
    REJECT("reject"),

    /**
     * Admit the new key's request without keeping state for it (fail open): throttled keys stay throttled, but
     * new keys are not limited at all until a slot frees up.
     */
    ALLOW("allow"),

    /**
     * Evict some keys with live state to make room: every key is limited, but an evicted key starts again with
     * a full budget, so a flood of new keys can reset a throttled key's limit.
     */
    EVICT("evict-oldest");

    private final String spelling;

    OnFull(String spelling) {
        this.spelling = spelling;
    }

    /** How the choice is written in a rules file. */
    public String spelling() {
        return spelling;
    }

    /** The choice for a rules-file spelling, or null. */
    public static OnFull bySpelling(String text) {
        for (OnFull value : values()) {
            if (value.spelling.equals(text)) {
                return value;
            }
        }
        return null;
    }
}
