package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.ModelChecks;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import java.util.ArrayList;
import java.util.List;
import org.jetbrains.lincheck.datastructures.Operation;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Calls of one and of two permits on one sliding log, racing each other and clock ticks: a call of two is one
 * CAS on its first entry, and its second entry (a follower) is written by whichever thread gets there first, the
 * caller or one that found the claim in progress. Every interleaving must give the admissions and remaining
 * counts of some one-at-a-time order of the list model: no call half taken, no follower lost or written twice.
 */
@Tag("lincheck")
public class SlidingLogSeveralPermitsModelTest {

    static final long START = 1_767_225_600_000L;
    static final long LIMIT = 4;
    static final long WINDOW = 2;

    private final ManualClock clock = new ManualClock(START);
    private final LimitConfig config = LimitConfig.of(LIMIT, WINDOW).withClock(clock);
    private final Bucket bucket = SlidingLogStrategy.INSTANCE.newBucket(config);

    public SlidingLogSeveralPermitsModelTest() { // public: Lincheck creates one instance per run by reflection
    }

    @Operation
    public long checkOne() {
        return check(1);
    }

    @Operation
    public long checkTwo() {
        return check(2);
    }

    private long check(long permits) {
        long[] out = Outcome.newArray();
        return SlidingLogStrategy.INSTANCE.check(bucket, config, permits, out) ? out[Outcome.REMAINING] : -1;
    }

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

    /** Admit {@code p} iff at most {@code LIMIT - p} admissions in {@code (now - WINDOW, now]}. */
    public static final class Model {
        private long now = START;
        private final List<Long> admitted = new ArrayList<>();

        public long checkOne() {
            return check(1);
        }

        public long checkTwo() {
            return check(2);
        }

        private long check(long permits) {
            long inWindow = admitted.stream().filter(t -> t > now - WINDOW).count();
            if (inWindow + permits > LIMIT) {
                return -1;
            }
            for (int i = 0; i < permits; i++) {
                admitted.add(now);
            }
            return LIMIT - inWindow - permits;
        }

        public void tick() {
            now++;
        }
    }
}
