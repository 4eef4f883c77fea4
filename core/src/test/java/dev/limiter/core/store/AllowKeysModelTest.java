package dev.limiter.core.store;

import dev.limiter.core.ModelChecks;
import dev.limiter.core.OnFull;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link KeysModelTest} under {@code on-full: allow}: a new key finding no idle key is admitted without state. */
@Tag("lincheck")
public class AllowKeysModelTest extends KeysModelTest {

    public AllowKeysModelTest() { // public: Lincheck creates one instance per run by reflection
        super(OnFull.ALLOW);
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 200).sequentialSpecification(Spec.class).check(getClass());
    }

    @Test
    void stress() {
        ModelChecks.stress(3, 3, 10, 200).sequentialSpecification(Spec.class).check(getClass());
    }

    public static final class Spec extends Model {
        public Spec() {
            super(true);
        }
    }
}
