package dev.limiter.core.strategy;

import static dev.limiter.core.strategy.TokenModel.CAPACITY;
import static dev.limiter.core.strategy.TokenModel.LIMIT;
import static dev.limiter.core.strategy.TokenModel.START;
import static dev.limiter.core.strategy.TokenModel.WINDOW;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.ModelChecks;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The token bucket's CAS loop against a count of tokens ({@link TokenModel}): every interleaving of checks and
 * clock ticks must give the admissions and remaining counts of some one-at-a-time order. A check whose clock
 * read is a tick old when its CAS lands must not look like a clock step back (which rewinds the base).
 */
@Tag("lincheck")
public class TokenBucketModelTest { // public: Lincheck creates one instance per run by reflection

    private final ManualClock clock = new ManualClock(START);
    private final LimitConfig config = LimitConfig.of(LIMIT, WINDOW).withCapacity(CAPACITY).withClock(clock);
    private final Bucket bucket = TokenBucketStrategy.INSTANCE.newBucket(config);

    /** Remaining permits if admitted, -1 if rejected. */
    @Operation
    public long check() {
        long[] out = Outcome.newArray();
        return TokenBucketStrategy.INSTANCE.check(bucket, config, out) ? out[Outcome.REMAINING] : -1;
    }

    /** One clock tick; ticks come from one thread (the clock's advance is not atomic with itself). */
    @Operation(nonParallelGroup = "clock")
    public void tick() {
        clock.advance(1);
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 200).sequentialSpecification(TokenModel.class).check(getClass());
    }

    @Test
    void stress() {
        ModelChecks.stress(3, 3, 10, 200).sequentialSpecification(TokenModel.class).check(getClass());
    }
}
