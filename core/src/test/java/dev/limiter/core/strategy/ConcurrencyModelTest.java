package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.ModelChecks;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The bulkhead's acquire, release and retire CASes against a counter of calls in flight: every interleaving must
 * give the results of some one-at-a-time order; in particular a retire that succeeds is never followed by an
 * admission on that bucket (its permit could never be released), and a release never drives the count below 0.
 */
@Tag("lincheck")
public class ConcurrencyModelTest { // public: Lincheck creates one instance per run by reflection

    static final long LIMIT = 2;

    private final LimitConfig config = LimitConfig.of(LIMIT, 1_000).withClock(new ManualClock());
    private final Bucket bucket = ConcurrencyStrategy.INSTANCE.newBucket(config);

    /** Remaining permits if admitted, -1 if rejected. */
    @Operation
    public long check() {
        long[] out = Outcome.newArray();
        return ConcurrencyStrategy.INSTANCE.check(bucket, config, out) ? out[Outcome.REMAINING] : -1;
    }

    @Operation
    public void release() {
        ConcurrencyStrategy.INSTANCE.release(bucket, config);
    }

    @Operation
    public boolean retire() {
        return ConcurrencyStrategy.INSTANCE.retire(bucket, config);
    }

    @Operation
    public long inFlight() {
        return ConcurrencyStrategy.inFlight(bucket);
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 300).sequentialSpecification(Model.class).check(getClass());
    }

    @Test
    void stress() {
        ModelChecks.stress(3, 3, 10, 300).sequentialSpecification(Model.class).check(getClass());
    }

    /** At most {@code LIMIT} in flight; a retired bucket admits nothing. */
    public static final class Model {
        private long inFlight;
        private boolean retired;

        public long check() {
            if (retired || inFlight >= LIMIT) {
                return -1;
            }
            inFlight++;
            return LIMIT - inFlight;
        }

        public void release() {
            if (!retired && inFlight > 0) {
                inFlight--;
            }
        }

        public boolean retire() {
            if (!retired && inFlight != 0) {
                return false;
            }
            retired = true;
            return true;
        }

        public long inFlight() {
            return retired ? 0 : inFlight;
        }
    }
}
