package dev.limiter.core.store;

import dev.limiter.core.ModelChecks;
import dev.limiter.core.OnFull;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * {@link KeysModelTest} under {@code on-full: reject}: a new key finding no idle key is refused.
 *
 * <p>Model checking only: a new key that finds a slot reserved by another thread's insertion waits for it a
 * bounded number of turns ({@code LocalKeyedLimiter.MAX_SLOT_WAITS}) and is then refused, failing closed. A stress
 * run on a starved machine can deschedule the inserting thread for longer and see that refusal, which the
 * sequential model does not have; the model checker lets every thread progress, so it holds the store to the
 * model exactly.
 */
@Tag("lincheck")
public class RejectKeysModelTest extends KeysModelTest {

    public RejectKeysModelTest() { // public: Lincheck creates one instance per run by reflection
        super(OnFull.REJECT);
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 200).sequentialSpecification(Spec.class).check(getClass());
    }

    public static final class Spec extends Model {
        public Spec() {
            super(false);
        }
    }
}
