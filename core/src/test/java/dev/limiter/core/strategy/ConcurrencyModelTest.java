package dev.limiter.core.strategy;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.ModelChecks;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import org.jetbrains.lincheck.LincheckAssertionError;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The bulkhead's acquire, release and retire CASes against a counter of calls in flight ({@link BulkheadModel}):
 * every interleaving must give the results of some one-at-a-time order; in particular a retire that succeeds is
 * never followed by an admission on that bucket (its permit could never be released), and a release never drives
 * the count below 0.
 */
@Tag("lincheck")
public class ConcurrencyModelTest extends BulkheadModel {

    public ConcurrencyModelTest() { // public: Lincheck creates one instance per run by reflection
        super(ConcurrencyStrategy.INSTANCE);
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 200).sequentialSpecification(Model.class).check(getClass());
    }

    @Test
    void stress() {
        ModelChecks.stress(3, 3, 10, 200).sequentialSpecification(Model.class).check(getClass());
    }

    /** The check above can fail: an acquire written as read-then-write (no CAS) is caught. */
    @Test
    void catchesALostUpdate() {
        assertThatThrownBy(() -> ModelChecks.modelChecking(2, 2, 10, 300).sequentialSpecification(Model.class)
                .minimizeFailedScenario(false) // only whether it fails matters here
                .check(ReadThenWrite.class)).isInstanceOf(LincheckAssertionError.class);
    }

    /** The operations on {@link ReadThenWriteStrategy}. */
    public static final class ReadThenWrite extends BulkheadModel {
        public ReadThenWrite() {
            super(new ReadThenWriteStrategy());
        }
    }

    /** The bulkhead with its acquire CAS replaced by a read and a write: two racing acquires can both pass. */
    static final class ReadThenWriteStrategy implements RateLimitStrategy {
        private final ConcurrencyStrategy real = ConcurrencyStrategy.INSTANCE;

        @Override
        public String name() {
            return "read-then-write";
        }

        @Override
        public Bucket newBucket(LimitConfig config) {
            return real.newBucket(config);
        }

        @Override
        public boolean check(Bucket bucket, LimitConfig config, long[] out) {
            long inFlight = bucket.slot0();
            if (inFlight < 0 || inFlight >= config.limit()) {
                return Outcome.reject(out, 0, 0, config.windowMillis(), config.limit());
            }
            bucket.setSlot0(inFlight + 1);
            return Outcome.allow(out, config.limit() - inFlight - 1, 0, config.limit());
        }

        @Override
        public long peek(Bucket bucket, LimitConfig config, long[] out) {
            return real.peek(bucket, config, out);
        }

        @Override
        public void release(Bucket bucket, LimitConfig config) {
            real.release(bucket, config);
        }

        @Override
        public boolean isIdle(Bucket bucket, LimitConfig config) {
            return real.isIdle(bucket, config);
        }

        @Override
        public boolean retire(Bucket bucket, LimitConfig config) {
            return real.retire(bucket, config);
        }
    }
}
