package dev.limiter.core.strategy;

import dev.limiter.core.LimitConfig;
import org.junit.jupiter.api.Tag;

/**
 * The sliding window's CAS loop (roll and count in one word) against two plain counters and the documented
 * estimate: every interleaving of checks and clock ticks must give the admissions and remaining counts of some
 * one-at-a-time order.
 */
@Tag("lincheck")
public class SlidingWindowModelTest extends ClockedModelTest {

    static final long START = 1_767_225_600_000L; // a window start for windows of 2 ms
    static final long LIMIT = 3;
    static final long WINDOW = 2;

    public SlidingWindowModelTest() { // public: Lincheck creates one instance per run by reflection
        super(SlidingWindowStrategy.INSTANCE, START, LimitConfig.of(LIMIT, WINDOW));
    }

    @Override
    protected Class<?> model() {
        return Model.class;
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
