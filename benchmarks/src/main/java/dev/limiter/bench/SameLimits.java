package dev.limiter.bench;

import java.time.Duration;

/**
 * The limits every benchmark uses, ours and the peers' alike, in one place so a reader can check the comparison
 * is fair: the same permits per the same period.
 *
 * <p>The "allowed" limit is far above what one hot key can be asked for in a benchmark (a billion a second
 * against tens of millions of calls), so every measured call takes the allowed path; each benchmark counts
 * the calls that did not and fails the iteration beyond 1 % of them ({@link CallerThread}). The "exhausted"
 * limit admits one call a day, which setup consumes, so every measured call takes the rejected path.
 */
final class SameLimits {

    /** Permits per {@link #ALLOWED_WINDOW} on the allowed path. */
    static final int ALLOWED_LIMIT = 1_000_000_000;

    static final Duration ALLOWED_WINDOW = Duration.ofSeconds(1);

    /**
     * The same rate for the sliding window, whose packed counters hold at most 2,097,151 per window: 2,000,000
     * per 2 ms is also a billion a second, in finer windows.
     */
    static final int SLIDING_ALLOWED_LIMIT = 2_000_000;

    static final Duration SLIDING_ALLOWED_WINDOW = Duration.ofMillis(2);

    /** Permits per {@link #EXHAUSTED_WINDOW} on the rejected path: setup takes the only one. */
    static final int EXHAUSTED_LIMIT = 1;

    static final Duration EXHAUSTED_WINDOW = Duration.ofDays(1);

    private SameLimits() {
    }
}
