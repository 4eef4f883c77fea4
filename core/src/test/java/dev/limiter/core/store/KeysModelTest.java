package dev.limiter.core.store;

import dev.limiter.core.LimitConfig;
import dev.limiter.core.OnFull;
import dev.limiter.core.Outcome;
import dev.limiter.core.clock.ManualClock;
import dev.limiter.core.strategy.FixedWindowStrategy;
import java.util.HashMap;
import java.util.Map;
import org.jetbrains.lincheck.datastructures.IntGen;
import org.jetbrains.lincheck.datastructures.Operation;
import org.jetbrains.lincheck.datastructures.Param;
import org.jetbrains.lincheck.datastructures.Validate;

/**
 * A tiny {@link LocalKeyedLimiter} (2 keys, 3 clients, a fixed window of 1 per 2 ms) under the model checker:
 * insertion, the eviction of idle keys (expired window or nothing counted), the {@link OnFull} choice when no key
 * is idle, and the counter of keys, racing checks of the same and other keys and the clock. The sequential
 * specification is {@link Model}, the documented behaviour written as plain maps.
 *
 * <p>Two races it found, both fixed. First, a bucket the eviction hand drops as idle between a thread's lookup
 * (or insertion) and its check took that thread's permit off the map, and the key's next request got a fresh
 * bucket. Interleaving, 2 keys, {@code reject}: {@code k2} admitted; then thread A inserts {@code k0} (counter
 * 1 -> 2, put) and pauses before its check; thread B's new key {@code k1} finds the counter full, the hand
 * retires {@code k0}'s fresh bucket (nothing counted yet: idle) and removes it, B inserts {@code k1} and is
 * admitted; A resumes, checks its detached bucket and was admitted: three keys admitted with state in a 2-key
 * store that refuses new keys, and {@code k0}'s next request in the same window admitted again. Now every
 * built-in strategy's {@code retire} CASes the idle state to a marker no real state takes, a check on it
 * rejects, and {@code tryAcquire} looks the key up again, so A's permit is taken on {@code k0}'s new bucket.
 * Second, a new key was refused (or admitted without state) while a slot was only counted, not yet in the map:
 * an insertion of the same key between its reservation and its put, or one giving back the slot of a race it
 * lost (see {@link BulkheadKeysModelTest}). The store now waits for such a slot (bounded) and looks the key up
 * again before refusing; the model checker holds that to the model. The wait is bounded, so a stress run on a
 * loaded machine can still see a refusal once it ran out: these tests run under the model checker only.
 *
 * <p>Subclasses pick the {@link OnFull} choice.
 */
@Param(name = "key", gen = IntGen.class, conf = "0:2")
public abstract class KeysModelTest {

    static final long START = 1_767_225_600_000L; // a window start for windows of 2 ms
    static final long LIMIT = 1;
    static final long WINDOW = 2;
    static final int MAX_KEYS = 2;
    static final String[] KEYS = {"k0", "k1", "k2"};

    private final ManualClock clock = new ManualClock(START);
    final LocalKeyedLimiter limiter;

    KeysModelTest(OnFull onFull) {
        limiter = LocalKeyedLimiter.create(FixedWindowStrategy.INSTANCE,
                LimitConfig.of(LIMIT, WINDOW).withClock(clock), MAX_KEYS, onFull);
    }

    /** Remaining permits if admitted (0 for a key admitted without state), -1 if rejected or refused. */
    @Operation
    public long acquire(@Param(name = "key") int key) {
        long[] out = Outcome.newArray();
        return limiter.tryAcquire(KEYS[key], out) ? out[Outcome.REMAINING] : -1;
    }

    /** One clock tick; ticks come from one thread (the clock's advance is not atomic with itself). */
    @Operation(nonParallelGroup = "clock")
    public void tick() {
        clock.advance(1);
    }

    /** The counter that bounds the keys agrees with the map, and the bound holds. */
    @Validate
    public void keysCounted() {
        int counted = limiter.activeKeys();
        if (counted != limiter.mapSize() || counted > MAX_KEYS) {
            throw new IllegalStateException("counter " + counted + ", map " + limiter.mapSize());
        }
    }

    /**
     * The documented behaviour: a key's own window as in {@code FixedWindowModelTest}; a new key in a full store
     * first drops every idle key (the tiny table fits in one walk of the eviction hand), then, if none was idle,
     * is refused ({@code reject}) or admitted without state ({@code allow}).
     */
    abstract static class Model {
        private final boolean allowWhenFull;
        private final Map<Integer, long[]> windows = new HashMap<>(); // key -> {window, count}
        private long now = START;

        Model(boolean allowWhenFull) {
            this.allowWhenFull = allowWhenFull;
        }

        public long acquire(int key) {
            long window = Math.floorDiv(now, WINDOW);
            long[] state = windows.get(key);
            if (state == null) {
                if (windows.size() >= MAX_KEYS) {
                    windows.values().removeIf(s -> s[0] != window || s[1] == 0);
                    if (windows.size() >= MAX_KEYS) {
                        return allowWhenFull ? 0 : -1;
                    }
                }
                state = new long[] {window, 0};
                windows.put(key, state);
            }
            if (state[0] != window) {
                state[0] = window;
                state[1] = 0;
            }
            if (state[1] >= LIMIT) {
                return -1;
            }
            state[1]++;
            return LIMIT - state[1];
        }

        public void tick() {
            now++;
        }
    }
}
