package dev.limiter.core.strategy;

import dev.limiter.core.LimitConfig;
import org.junit.jupiter.api.Tag;

/**
 * {@link ReconfigureModelTest} on the sliding log: a limit of 2 reloaded as 3, with checks of both racing. The
 * first check under 3 moves the log into a larger ring (freeze the old one at its head, copy, swap) while checks
 * under 2 claim on the old ring or help the move; checks under 2 on the larger ring apply the lower limit in place.
 * No entry may be lost or counted twice on the way, so every history must match some one-at-a-time order.
 */
@Tag("lincheck")
public class SlidingLogReconfigureModelTest extends ReconfigureModelTest {

    public SlidingLogReconfigureModelTest() { // public: Lincheck creates one instance per run by reflection
        super(SlidingLogStrategy.INSTANCE, LimitConfig.of(2, 1_000), LimitConfig.of(3, 1_000));
    }
}
