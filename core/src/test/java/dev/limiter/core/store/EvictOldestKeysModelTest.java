package dev.limiter.core.store;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.ModelChecks;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.FixedWindowStrategy;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * A tiny {@link LocalKeyedLimiter} under {@code on-full: evict-oldest} in the model checker. Which live key goes
 * depends on the map's iteration order and where the eviction hand stopped, so there is no simple sequential
 * model of the decisions; this checks what must hold in every interleaving: no exception, no deadlock or
 * livelock (the hand's lock, the counter's CAS loop), and afterwards a key counter that agrees with the map and
 * the bound.
 */
@Tag("lincheck")
@Param(name = "key", gen = IntGen.class, conf = "0:2")
public class EvictOldestKeysModelTest { // public: Lincheck creates one instance per run by reflection

    static final int MAX_KEYS = 2;
    static final String[] KEYS = {"k0", "k1", "k2"};

    private final ManualClock clock = new ManualClock(1_767_225_600_000L);
    private final LocalKeyedLimiter limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
            LimitConfig.of(1, 2).withClock(clock), MAX_KEYS, OnFull.EVICT);

    @Operation
    public void acquire(@Param(name = "key") int key) {
        limiter.tryAcquire(KEYS[key], Outcome.newArray());
    }

    @Operation
    public void resetKey(@Param(name = "key") int key) {
        limiter.resetKey(KEYS[key]);
    }

    /** One clock tick; ticks come from one thread (the clock's advance is not atomic with itself). */
    @Operation(nonParallelGroup = "clock")
    public void tick() {
        clock.advance(1);
    }

    @Validate
    public void keysCounted() {
        int counted = limiter.activeKeys();
        if (counted != limiter.mapSize() || counted > MAX_KEYS) {
            throw new IllegalStateException("counter " + counted + ", map " + limiter.mapSize());
        }
    }

    @Test
    void modelChecking() {
        ModelChecks.modelChecking(2, 3, 4, 50).check(getClass());
    }

    @Test
    void stress() {
        ModelChecks.stress(2, 3, 4, 50).check(getClass());
    }
}
