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
 * The unit-scale conversion of the token bucket and the GCRA meter ({@link UnitScale}) racing checks: during a
 * reload some threads still hold the old config and others the new one, so checks in both scales meet on one
 * bucket and each first converts it to its own scale. The sequential specification is the strategy itself, one
 * check at a time (a conversion at each change of scale): a concurrent history must match one of those, so a
 * check that read slot 0 in one scale never writes it back into a bucket converted meanwhile (the seqlock
 * recheck and the generation in slot 1: the A -> B -> A story of {@link dev.limiter.core.ScaleTags}), and no
 * interleaving admits more than some order of the same checks.
 *
 * <p>Why the clock stands still and both configs have the same capacity: then every conversion is exact (whole
 * permits, nothing clamped), so a history that differs from every order can only come from the protocol. With
 * refill between checks or a capacity change, a thread that still holds the old config converts the bucket
 * back and the round trip rounds or clamps: the documented reload race of docs/strategies.md (token bucket:
 * tokens lost; GCRA: up to the capacity difference forgiven once), which the model checker duly reports.
 *
 * <p>Subclasses pick the strategy and the two scales.
 */
public abstract class ReconfigureModelTest {

    static final long START = 1_767_225_600_000L;

    private final RateLimitStrategy strategy;
    private final LimitConfig a;
    private final LimitConfig b;
    private final Bucket bucket;

    ReconfigureModelTest(RateLimitStrategy strategy, LimitConfig a, LimitConfig b) {
        this.strategy = strategy;
        ManualClock clock = new ManualClock(START);
        this.a = a.withClock(clock);
        this.b = b.withClock(clock);
        this.bucket = strategy.newBucket(this.a);
    }

    /** A check by a thread that still holds the old config: remaining if admitted, -1 if rejected. */
    @Operation
    public long checkOld() {
        long[] out = Outcome.newArray();
        return strategy.check(bucket, a, out) ? out[Outcome.REMAINING] : -1;
    }

    /** A check by a thread that already holds the new config. */
    @Operation
    public long checkNew() {
        long[] out = Outcome.newArray();
        return strategy.check(bucket, b, out) ? out[Outcome.REMAINING] : -1;
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 200).check(getClass());
    }

    @Test
    void stress() {
        ModelChecks.stress(3, 3, 10, 200).check(getClass());
    }
}
