package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;

/**
 * What every deterministic strategy test starts from: a {@link ManualClock} at a whole minute (so windows are
 * aligned and expected reset values are easy to write), a reused out array, and {@link #drain}.
 */
abstract class ManualClockStrategyTest<S extends RateLimitStrategy> {

    /** 2026-01-01T00:00:00Z: a whole minute, second and day. */
    static final long START = 1_767_225_600_000L;

    final ManualClock clock = new ManualClock(START);
    final long[] out = Outcome.newArray();
    final S strategy;

    ManualClockStrategyTest(S strategy) {
        this.strategy = strategy;
    }

    /** Checks until the first rejection; returns how many were admitted (out holds the rejection). */
    int drain(Bucket bucket, LimitConfig config) {
        int admitted = 0;
        while (strategy.check(bucket, config, out)) {
            admitted++;
        }
        return admitted;
    }
}
