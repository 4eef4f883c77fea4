package dev.limiter.bench;

import dev.limiter.core.KeyedLimiter;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.Clock;
import dev.limiter.core.store.LocalKeyedLimiter;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;

/**
 * The sliding log beside the sliding window: {@link KeyedLimiter#tryAcquire} of one existing key, allowed path,
 * through the keyed store as a rule runs it. All threads hit the same key (the 2-thread run is CAS contention on
 * one log, the worst case).
 *
 * <p>Why a clock of its own: the log's allowed rate is at most {@code limit} per window, 10,000 per millisecond at
 * its bound, below what one hot key is asked for here (tens of millions of calls a second), so on a millisecond
 * clock most calls would take the rejected path. {@link #FAST} counts "milliseconds" of 128 ns
 * ({@code System.nanoTime() >>> 7}): the window is 1 unit for both strategies, so the log keeps the last few
 * admissions in its window (realistic: a log well below its limit, whose remaining count is searched for) and the
 * sliding window rolls every 128 ns. Both read the same clock (one {@code nanoTime}), so the difference between
 * the rows is the strategies'. {@code limit} sizes the log's ring (100 or the bound, 10,000:
 * 0.8 or 78 KiB); the sliding window runs at its maximum count per window.
 */
@State(Scope.Benchmark)
public class SlidingLogBenchmark extends BenchmarkDefaults {

    /** 128 ns a "millisecond". */
    static final Clock FAST = () -> System.nanoTime() >>> 7;

    @Param({"sliding-log:100", "sliding-log:10000", "sliding-window:2000000"})
    String strategy;

    private KeyedLimiter limiter;

    @Setup
    public void setUp() {
        String[] nameAndLimit = strategy.split(":");
        RateLimitStrategy algorithm = OurLimiters.strategy(nameAndLimit[0]);
        LimitConfig config = LimitConfig.of(Long.parseLong(nameAndLimit[1]), 1).withClock(FAST);
        limiter = LocalKeyedLimiter.create(algorithm, config, 16);
        OurLimiters.requireAllowed(limiter.tryAcquire("key", new long[5]), strategy);
    }

    @Benchmark
    public boolean tryAcquire(CallerThread thread) {
        return thread.expectAllowed(limiter.tryAcquire("key", thread.out));
    }
}
