package dev.limiter.core.strategy;

import static dev.limiter.core.strategy.TokenModel.CAPACITY;
import static dev.limiter.core.strategy.TokenModel.LIMIT;
import static dev.limiter.core.strategy.TokenModel.START;
import static dev.limiter.core.strategy.TokenModel.WINDOW;

import dev.limiter.core.LimitConfig;
import org.junit.jupiter.api.Tag;

/**
 * The token bucket's CAS loop against a count of tokens ({@link TokenModel}): every interleaving of checks and
 * clock ticks must give the admissions and remaining counts of some one-at-a-time order. A check whose clock
 * read is a tick old when its CAS lands must not look like a clock step back (which rewinds the base).
 */
@Tag("lincheck")
public class TokenBucketModelTest extends ClockedModelTest {

    public TokenBucketModelTest() { // public: Lincheck creates one instance per run by reflection
        super(TokenBucketStrategy.INSTANCE, START, LimitConfig.of(LIMIT, WINDOW).withCapacity(CAPACITY));
    }

    @Override
    protected Class<?> model() {
        return TokenModel.class;
    }
}
