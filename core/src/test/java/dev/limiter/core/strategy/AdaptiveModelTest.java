package dev.limiter.core.strategy;

import dev.limiter.core.ModelChecks;
import dev.limiter.core.strategy.adaptive.AdaptiveSettings;
import dev.limiter.core.strategy.adaptive.AdaptiveStrategy;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The adaptive limit's acquire, sampling release and retire against the bulkhead's model ({@link BulkheadModel}),
 * its bounds pinned to the model's limit so windows close (each release moves the clock 100 ms) without the limit
 * moving: the sample's atomic add and the window's close must not disturb the count of calls in flight, and a
 * retired bucket admits nothing.
 */
@Tag("lincheck")
public class AdaptiveModelTest extends BulkheadModel {

    public AdaptiveModelTest() { // public: Lincheck creates one instance per run by reflection
        super(AdaptiveStrategy.of(new AdaptiveSettings("gradient", LIMIT, LIMIT)));
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 200).sequentialSpecification(Model.class).check(getClass());
    }

    @Test
    void stress() {
        ModelChecks.stress(3, 3, 10, 200).sequentialSpecification(Model.class).check(getClass());
    }
}
