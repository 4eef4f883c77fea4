package dev.limiter.core.strategy;

import dev.limiter.core.LimitConfig;
import org.junit.jupiter.api.Tag;

/**
 * {@link ReconfigureModelTest} on the token bucket: 1 per 2 ms (scale 1:2) reloaded as 2 per 3 ms
 * (scale 2:3), a burst of 2 in both, so every conversion rescales.
 */
@Tag("lincheck")
public class TokenBucketReconfigureModelTest extends ReconfigureModelTest {

    public TokenBucketReconfigureModelTest() { // public: Lincheck creates one instance per run by reflection
        super(TokenBucketStrategy.INSTANCE, LimitConfig.of(1, 2).withCapacity(2),
                LimitConfig.of(2, 3).withCapacity(2));
    }
}
