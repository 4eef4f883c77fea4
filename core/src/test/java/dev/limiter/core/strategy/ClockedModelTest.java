package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.ModelChecks;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Test;

/**
 * One bucket of a rate strategy on a manual clock, raced by checks and clock ticks under the model checker and in
 * stress mode: every interleaving must give the admissions and remaining counts of some one-at-a-time order of
 * the subclass's sequential {@link #model()}. The clock read before a check's CAS loop may be a tick old when the
 * CAS lands, which must not look like a clock step back.
 */
public abstract class ClockedModelTest {

    private final RateLimitStrategy strategy;
    private final ManualClock clock;
    private final LimitConfig config;
    private final Bucket bucket;

    protected ClockedModelTest(RateLimitStrategy strategy, long start, LimitConfig unclocked) {
        this.strategy = strategy;
        this.clock = new ManualClock(start);
        this.config = unclocked.withClock(clock);
        this.bucket = strategy.newBucket(config);
    }

    /** The sequential specification: a public class with public {@code long check()} and {@code void tick()}. */
    protected abstract Class<?> model();

    /** Remaining permits if admitted, -1 if rejected. */
    @Operation
    public long check() {
        long[] out = Outcome.newArray();
        return strategy.check(bucket, config, out) ? out[Outcome.REMAINING] : -1;
    }

    /** One clock tick; ticks come from one thread (the clock's advance is not atomic with itself). */
    @Operation(nonParallelGroup = "clock")
    public void tick() {
        clock.advance(1);
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 200).sequentialSpecification(model()).check(getClass());
    }

    @Test
    void stress() {
        ModelChecks.stress(3, 3, 10, 200).sequentialSpecification(model()).check(getClass());
    }
}
