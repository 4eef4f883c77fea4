package dev.limiter.core.store;

import dev.limiter.core.ModelChecks;
import dev.limiter.core.OnFull;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/** {@link KeysModelTest} under {@code on-full: reject}: a new key finding no idle key is refused. */
@Tag("lincheck")
public class RejectKeysModelTest extends KeysModelTest {

    public RejectKeysModelTest() { // public: Lincheck creates one instance per run by reflection
        super(OnFull.REJECT);
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
            super(false);
        }
    }
}
