package dev.limiter.core.strategy;

import dev.limiter.core.LimitConfig;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;

/**
 * The sliding log's claims (a CAS on the entry at the head, helping a claim in progress, the time of the entry
 * before) against a plain list of admission times: every interleaving of checks and clock ticks must give the
 * admissions and remaining counts of some one-at-a-time order. A ring of 3 entries, so the racing checks wrap it.
 */
@Tag("lincheck")
public class SlidingLogModelTest extends ClockedModelTest {

    static final long START = 1_767_225_600_000L;
    static final long LIMIT = 3;
    static final long WINDOW = 2;

    public SlidingLogModelTest() { // public: Lincheck creates one instance per run by reflection
        super(SlidingLogStrategy.INSTANCE, START, LimitConfig.of(LIMIT, WINDOW));
    }

    @Override
    protected Class<?> model() {
        return Model.class;
    }

    /** Admit iff fewer than {@code LIMIT} admissions in {@code (now - WINDOW, now]}. */
    public static final class Model {
        private long now = START;
        private final List<Long> admitted = new ArrayList<>();

        public long check() {
            long inWindow = admitted.stream().filter(t -> t > now - WINDOW).count();
            if (inWindow >= LIMIT) {
                return -1;
            }
            admitted.add(now);
            return LIMIT - inWindow - 1;
        }

        public void tick() {
            now++;
        }
    }
}
