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
 * The fixed window's CAS loop against a plain counter: every interleaving of checks and clock ticks (the clock
 * read before the loop may be a tick old when the CAS lands) must give the admissions and remaining counts of
 * some one-at-a-time order.
 */
@Tag("lincheck")
public class FixedWindowModelTest { // public: Lincheck creates one instance per run by reflection

    static final long START = 1_767_225_600_000L; // a window start for windows of 2 ms
    static final long LIMIT = 2;
    static final long WINDOW = 2;

    private final ManualClock clock = new ManualClock(START);
    private final LimitConfig config = LimitConfig.of(LIMIT, WINDOW).withClock(clock);
    private final Bucket bucket = FixedWindowStrategy.INSTANCE.newBucket(config);

    /** Remaining permits if admitted, -1 if rejected. */
    @Operation
    public long check() {
        long[] out = Outcome.newArray();
        return FixedWindowStrategy.INSTANCE.check(bucket, config, out) ? out[Outcome.REMAINING] : -1;
    }

    /** One clock tick; ticks come from one thread (the clock's advance is not atomic with itself). */
    @Operation(nonParallelGroup = "clock")
    public void tick() {
        clock.advance(1);
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 200).sequentialSpecification(Model.class).check(getClass());
    }

    @Test
    void stress() {
        ModelChecks.stress(3, 3, 10, 200).sequentialSpecification(Model.class).check(getClass());
    }

    /** The documented behaviour: at most {@code LIMIT} per clock-aligned window. */
    public static final class Model {
        private long now = START;
        private long window = START / WINDOW;
        private long count;

        public long check() {
            long w = Math.floorDiv(now, WINDOW);
            if (w != window) {
                window = w;
                count = 0;
            }
            if (count >= LIMIT) {
                return -1;
            }
            count++;
            return LIMIT - count;
        }

        public void tick() {
            now++;
        }
    }
}
