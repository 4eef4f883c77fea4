package dev.limiter.core.strategy;

import static dev.limiter.core.strategy.TokenModel.CAPACITY;
import static dev.limiter.core.strategy.TokenModel.LIMIT;
import static dev.limiter.core.strategy.TokenModel.START;
import static dev.limiter.core.strategy.TokenModel.WINDOW;

import dev.limiter.core.LimitConfig;
import org.junit.jupiter.api.Tag;

/**
 * The GCRA meter's CAS loop against a count of tokens ({@link TokenModel}: the same admission as a token bucket of
 * the same capacity and rate): every interleaving of checks and clock ticks must give the admissions and
 * remaining counts of some one-at-a-time order. A check whose clock read is a tick old when its CAS lands must
 * not look like a clock step back (which pulls the arrival time back).
 */
@Tag("lincheck")
public class LeakyBucketModelTest extends ClockedModelTest {

    public LeakyBucketModelTest() { // public: Lincheck creates one instance per run by reflection
        super(LeakyBucketStrategy.INSTANCE, START, LimitConfig.of(LIMIT, WINDOW).withCapacity(CAPACITY));
    }

    @Override
    protected Class<?> model() {
        return TokenModel.class;
    }
}
