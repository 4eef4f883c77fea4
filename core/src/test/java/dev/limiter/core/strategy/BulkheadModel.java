package dev.limiter.core.strategy;

import dev.limiter.core.Bucket;
import dev.limiter.core.LimitConfig;
import dev.limiter.core.Outcome;
import dev.limiter.core.RateLimitStrategy;
import dev.limiter.core.clock.ManualClock;
import java.util.concurrent.atomic.AtomicLong;
import org.jetbrains.lincheck.datastructures.Operation;

/**
 * One bulkhead bucket's operations for the model checker, and {@link Model}, their documented behaviour as a
 * counter of calls in flight. Subclasses pick the strategy: the real ones ({@link ConcurrencyModelTest}, and
 * {@link AdaptiveModelTest} with its bounds pinned to the same limit) or a broken one that the check must catch.
 */
public abstract class BulkheadModel {

    static final long LIMIT = 2;

    private final LimitConfig config = LimitConfig.of(LIMIT, 1_000).withClock(new ManualClock());
    private final RateLimitStrategy strategy;
    private final Bucket bucket;
    private final AtomicLong clockNanos = new AtomicLong(System.nanoTime());

    BulkheadModel(RateLimitStrategy strategy) {
        this.strategy = strategy;
        this.bucket = strategy.newBucket(config);
    }

    /** Remaining permits if admitted, -1 if rejected. */
    @Operation
    public long check() {
        long[] out = Outcome.newArray();
        return strategy.check(bucket, config, out) ? out[Outcome.REMAINING] : -1;
    }

    /** With a latency and a clock 100 ms further at each release: a strategy that samples closes its windows. */
    @Operation
    public void release() {
        strategy.release(bucket, config, 1_000_000L, clockNanos.addAndGet(100_000_000L));
    }

    @Operation
    public boolean retire() {
        return strategy.retire(bucket, config);
    }

    @Operation
    public long inFlight() {
        return ConcurrencyStrategy.inFlight(bucket);
    }

    /** At most {@code LIMIT} in flight; a retired bucket admits nothing. */
    public static final class Model {
        private long inFlight;
        private boolean retired;

        public long check() {
            if (retired || inFlight >= LIMIT) {
                return -1;
            }
            inFlight++;
            return LIMIT - inFlight;
        }

        public void release() {
            if (!retired && inFlight > 0) {
                inFlight--;
            }
        }

        public boolean retire() {
            if (!retired && inFlight != 0) {
                return false;
            }
            retired = true;
            return true;
        }

        public long inFlight() {
            return retired ? 0 : inFlight;
        }
    }
}
