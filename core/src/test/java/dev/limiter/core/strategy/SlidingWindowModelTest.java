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
 * The sliding window's CAS loop (roll and count in one word) against two plain counters and the documented
 * estimate: every interleaving of checks and clock ticks must give the admissions and remaining counts of some
 * one-at-a-time order.
 */
@Tag("lincheck")
public class SlidingWindowModelTest { // public: Lincheck creates one instance per run by reflection

    static final long START = 1_767_225_600_000L; // a window start for windows of 2 ms
    static final long LIMIT = 3;
    static final long WINDOW = 2;

    private final ManualClock clock = new ManualClock(START);
    private final LimitConfig config = LimitConfig.of(LIMIT, WINDOW).withClock(clock);
    private final Bucket bucket = SlidingWindowStrategy.INSTANCE.newBucket(config);

    /** Remaining permits if admitted, -1 if rejected. */
    @Operation
    public long check() {
        long[] out = Outcome.newArray();
        return SlidingWindowStrategy.INSTANCE.check(bucket, config, out) ? out[Outcome.REMAINING] : -1;
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

    /** previous * (window - elapsed) / window + current + 1 <= limit, over clock-aligned windows. */
    public static final class Model {
        private long now = START;
        private long window = START / WINDOW;
        private long previous;
        private long current;

        public long check() {
            long w = Math.floorDiv(now, WINDOW);
            if (w == window + 1) {
                previous = current;
                current = 0;
            } else if (w != window) {
                previous = 0;
                current = 0;
            }
            window = w;
            long weighted = previous * (WINDOW - (now - w * WINDOW));
            if (current >= LIMIT || weighted > (LIMIT - current - 1) * WINDOW) {
                return -1;
            }
            current++;
            return LIMIT - current - (weighted + WINDOW - 1) / WINDOW;
        }

        public void tick() {
            now++;
        }
    }
}
