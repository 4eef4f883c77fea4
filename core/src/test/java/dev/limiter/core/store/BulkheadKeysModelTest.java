package dev.limiter.core.store;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.ModelChecks;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.ConcurrencyStrategy;
import java.util.HashMap;
import java.util.Map;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A tiny {@link LocalKeyedLimiter} of bulkheads (2 keys, 3 clients, 1 call in flight each) under the model
 * checker: acquire, release and reset by key racing the eviction hand, which may only drop a key after retiring
 * it with nothing in flight. A permit taken on a bucket that left the map could never be released, so every
 * interleaving must match {@link Spec}: calls in flight per key, idle keys dropped when a new key needs the slot,
 * a new key refused when none is idle.
 *
 * <p>Model checking only. A slot reserved by an insertion that then loses the race for the same key counts as
 * taken until it is given back. Interleaving, 2 keys: thread A inserts {@code k2} (counter 0 -> 1, put) and is
 * admitted; thread C, racing A for {@code k2}, reserved a slot (counter 1 -> 2) and is still in its put; A's next
 * request, for the new key {@code k1}, finds the counter full, walks the map ({@code k2} has a call in flight: not
 * idle) and frees nothing. The store waits for such a slot (while the map holds fewer entries than the counter)
 * and looks its key up again before refusing, which the model checker holds to the model; but the wait is
 * bounded ({@code LocalKeyedLimiter.MAX_SLOT_WAITS}), since an unbounded one would stall every new key behind a
 * thread descheduled between its reservation and its put (or a slot leaked by a throwing {@code newBucket}), so a
 * stress run on a loaded machine sees, now and then, a fail-closed refusal the model does not have. Removing it
 * needs a reservation that does not count as taken before its put succeeds, a change to insertion itself.
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:2")
public class BulkheadKeysModelTest { // public: Lincheck creates one instance per run by reflection

    static final long LIMIT = 1;
    static final int MAX_KEYS = 2;
    static final String[] KEYS = {"k0", "k1", "k2"};

    private final LocalKeyedLimiter limiter = LocalKeyedLimiter.create(ConcurrencyStrategy.INSTANCE,
            LimitConfig.of(LIMIT, 1_000).withClock(new ManualClock()), MAX_KEYS, OnFull.REJECT);

    /** Remaining permits if admitted, -1 if rejected or refused. */
    @Operation
    public long acquire(@Param(name = "key") int key) {
        long[] out = Outcome.newArray();
        return limiter.tryAcquire(KEYS[key], out) ? out[Outcome.REMAINING] : -1;
    }

    @Operation
    public void release(@Param(name = "key") int key) {
        limiter.release(KEYS[key]);
    }

    @Operation
    public void resetKey(@Param(name = "key") int key) {
        limiter.resetKey(KEYS[key]);
    }

    /** The counter that bounds the keys agrees with the map, and the bound holds. */
    @Validate
    public void keysCounted() {
        int counted = limiter.activeKeys();
        if (counted != limiter.mapSize() || counted > MAX_KEYS) {
            throw new IllegalStateException("counter " + counted + ", map " + limiter.mapSize());
        }
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(3, 3, 10, 200).sequentialSpecification(Spec.class).check(getClass());
    }

    /** The documented behaviour, as a map of calls in flight. */
    public static final class Spec {
        private final Map<Integer, Long> inFlight = new HashMap<>();

        public long acquire(int key) {
            Long n = inFlight.get(key);
            if (n == null) {
                if (inFlight.size() >= MAX_KEYS) {
                    inFlight.values().removeIf(v -> v == 0);
                    if (inFlight.size() >= MAX_KEYS) {
                        return -1;
                    }
                }
                n = 0L;
            }
            inFlight.put(key, n);
            if (n >= LIMIT) {
                return -1;
            }
            inFlight.put(key, n + 1);
            return LIMIT - n - 1;
        }

        public void release(int key) {
            Long n = inFlight.get(key);
            if (n != null && n > 0) {
                inFlight.put(key, n - 1);
            }
        }

        public void resetKey(int key) {
            Long n = inFlight.get(key);
            if (n != null && n == 0) {
                inFlight.remove(key);
            }
        }
    }
}
