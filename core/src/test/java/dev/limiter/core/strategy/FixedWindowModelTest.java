package dev.limiter.core.strategy;

import dev.limiter.core.LimitConfig;
import org.junit.jupiter.api.Tag;

/**
 * The fixed window's CAS loop against a plain counter: every interleaving of checks and clock ticks (the clock
 * read before the loop may be a tick old when the CAS lands) must give the admissions and remaining counts of
 * some one-at-a-time order.
 */
@Tag("lincheck")
public class FixedWindowModelTest extends ClockedModelTest {

    static final long START = 1_767_225_600_000L; // a window start for windows of 2 ms
    static final long LIMIT = 2;
    static final long WINDOW = 2;

    public FixedWindowModelTest() { // public: Lincheck creates one instance per run by reflection
        super(FixedWindowStrategy.INSTANCE, START, LimitConfig.of(LIMIT, WINDOW));
    }

    @Override
    protected Class<?> model() {
        return Model.class;
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
